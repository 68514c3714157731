// NOTE: moved to domain/; re-exported for src/bot until its importers move
export type { GpuProcess, GpuReading, HostObservation, LoginSession } from "../domain/observation.ts";
