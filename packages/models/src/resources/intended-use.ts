/** What an allocation is for; pools admit uses through `allowedUses`. */
export type IntendedUse = 'Workload' | 'Tunnel' | 'LoadBalancer';

export const INTENDED_USES: readonly IntendedUse[] = ['Workload', 'Tunnel', 'LoadBalancer'];

export type IPVersion = 4 | 6;
