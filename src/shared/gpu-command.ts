/** The one slash command; listeners register it under this name. */
export const GPU_COMMAND = "/gpu";
