import type { HostObservation } from "../domain/observation.ts";
import type { HistorySource, Source } from "../domain/source.ts";
import { hasHistory } from "../domain/source.ts";

/** `b/node-17`: how a host of cluster `b` is named when several clusters are configured. */
export function clusterHost(cluster: string, host: string): string {
  return `${cluster}/${host}`;
}

/**
 * The source with every host it reports named `cluster/host`: in its polls, its host list and its
 * history. Observations are renamed in place (each poll makes new ones).
 */
export function inCluster(source: Source, cluster: string): Source {
  const name = (host: string) => clusterHost(cluster, host);
  const rename = (observations: HostObservation[]) => {
    for (const observation of observations) observation.host = name(observation.host);
    return observations;
  };
  const base: Source = {
    kind: source.kind,
    get hosts() {
      return source.hosts.map(name);
    },
    ...(source.pollDeadlineMs !== undefined && { pollDeadlineMs: source.pollDeadlineMs }),
    poll: async (signal) => rename(await source.poll(signal)),
    ...(source.recall && {
      recall: (hosts, atMs) => {
        const prefix = clusterHost(cluster, "");
        const own = hosts.filter((host) => host.name.startsWith(prefix));
        source.recall!(
          own.map((host) => ({ ...host, name: host.name.slice(prefix.length) })),
          atMs,
        );
      },
    }),
  };
  if (!hasHistory(source)) return base;
  const withHistory: HistorySource = {
    ...base,
    get hosts() {
      return source.hosts.map(name);
    },
    historyLookbackMs: source.historyLookbackMs,
    get lastHistoryQueryCount() {
      return source.lastHistoryQueryCount;
    },
    history: async (request, signal) => rename(await source.history(request, signal)),
    ...(source.hostsHistory && {
      hostsHistory: async (hosts, request, signal) => {
        const own = ownHosts(cluster, hosts);
        return own.length === 0 ? [] : rename(await source.hostsHistory!(own, request, signal));
      },
    }),
    ...(source.hostsIn && {
      hostsIn: async (span, signal) => (await source.hostsIn!(span, signal)).map(name),
    }),
    ...(source.readingsHistory && {
      readingsHistory: async (hosts, request, signal) => {
        const own = ownHosts(cluster, hosts);
        return own.length === 0 ? [] : rename(await source.readingsHistory!(own, request, signal));
      },
    }),
    busiestHistory: async (request, signal) => {
      const grids = await source.busiestHistory(request, signal);
      return new Map([...grids].map(([host, grid]) => [name(host), grid]));
    },
  };
  return withHistory;
}

/** The hosts of `cluster` among `hosts`, by their names in the cluster. */
function ownHosts(cluster: string, hosts: readonly string[]): string[] {
  const prefix = clusterHost(cluster, "");
  return hosts.filter((host) => host.startsWith(prefix)).map((host) => host.slice(prefix.length));
}
