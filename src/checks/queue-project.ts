/** One project as configured (`projects:`). */
export interface ProjectPolicy {
  members: readonly string[];
  priority: number;
  preempt: boolean;
}

/** A project by name, with its policy. */
export interface NamedProject extends ProjectPolicy {
  name: string;
}

export type ProjectChoice =
  /** `project` null: the person is in no project (priority 0). */
  | { kind: "ok"; project: NamedProject | null }
  | { kind: "unknown"; asked: string; known: string[] }
  | { kind: "not-member"; asked: string };

/** A person's default project: the first one (in config order) listing them, or null. Pure. */
export function defaultProject(
  projects: Readonly<Record<string, ProjectPolicy>>,
  user: string,
): NamedProject | null {
  for (const [name, policy] of Object.entries(projects)) {
    if (policy.members.includes(user)) return { name, ...policy };
  }
  return null;
}

/**
 * The project a request waits for: `asked` (`project=X`, which must name a project listing the
 * person) or their default project. Pure.
 */
export function chooseProject(
  projects: Readonly<Record<string, ProjectPolicy>>,
  user: string,
  asked: string | null,
): ProjectChoice {
  if (asked === null) return { kind: "ok", project: defaultProject(projects, user) };
  const name = asked.toLowerCase();
  const policy = projects[name];
  if (policy === undefined) return { kind: "unknown", asked, known: Object.keys(projects) };
  if (!policy.members.includes(user)) return { kind: "not-member", asked: name };
  return { kind: "ok", project: { name, ...policy } };
}

/** The priority a request of `project` waits with. */
export function priorityOf(project: Pick<ProjectPolicy, "priority"> | null): number {
  return project?.priority ?? 0;
}
