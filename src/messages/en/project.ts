/** Projects on the waiting list: `/gpu claim … project=X`. */
export const project = {
  "project.unknown":
    "There is no project `{asked}`. {count, plural, =0 {No projects are set up (`projects:` in the config).} other {Projects: {known}.}}",
  "project.notMember":
    "You are not a member of project `{project}`: an admin adds you under `projects:` in the config.",
  "project.none": "no project",
} as const satisfies Record<string, string>;
