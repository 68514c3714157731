/** Priorities on the waiting list (`/gpu queue`). */
export const priority = {
  "priority.heading": "*Priority and project*",
  "priority.entry": "{position}. {who}: priority {priority}, {project}",
  "priority.project": "project {name}",
} as const satisfies Record<string, string>;
