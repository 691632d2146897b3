import { serviceKeyString, type ServiceKey } from '../service/lb-service.js';

/**
 * The three cross-indexes of design/calico-callers.md#allocation-tracker: who owns each address, each Service's
 * addresses, and the addresses of each block. Every removal path cleans all three and prunes empty
 * sets; `assertConsistent()` checks that they agree (every controller test ends with it).
 */
export class AllocationTracker {
  private readonly servicesByIP = new Map<string, ServiceKey>();
  private readonly ipsByService = new Map<string, { key: ServiceKey; ips: Set<string> }>();
  private readonly ipsByBlock = new Map<string, Set<string>>();

  /** An address seen in a block listing. */
  assignToBlock(block: string, ip: string, svc: ServiceKey): void {
    const current = this.servicesByIP.get(ip);
    if (current !== undefined && serviceKeyString(current) !== serviceKeyString(svc)) this.releaseFromService(ip);
    let ips = this.ipsByBlock.get(block);
    if (ips === undefined) this.ipsByBlock.set(block, (ips = new Set()));
    ips.add(ip);
    this.assignToService(ip, svc);
  }

  /** An address the controller has just been given; its block is learned at the next listing. */
  assignToService(ip: string, svc: ServiceKey): void {
    const current = this.servicesByIP.get(ip);
    if (current !== undefined && serviceKeyString(current) !== serviceKeyString(svc)) this.dropFromService(ip, current);
    this.servicesByIP.set(ip, svc);
    const id = serviceKeyString(svc);
    let entry = this.ipsByService.get(id);
    if (entry === undefined) this.ipsByService.set(id, (entry = { key: svc, ips: new Set() }));
    entry.ips.add(ip);
  }

  /** Forgets an address everywhere. */
  releaseFromService(ip: string): void {
    const owner = this.servicesByIP.get(ip);
    if (owner !== undefined) this.dropFromService(ip, owner);
    this.servicesByIP.delete(ip);
    for (const [block, ips] of this.ipsByBlock) {
      if (ips.delete(ip) && ips.size === 0) this.ipsByBlock.delete(block);
    }
  }

  /** Forgets every address of a Service and the Service itself. */
  deleteService(svc: ServiceKey): void {
    const entry = this.ipsByService.get(serviceKeyString(svc));
    if (entry === undefined) return;
    for (const ip of [...entry.ips]) this.releaseFromService(ip);
    this.ipsByService.delete(serviceKeyString(svc));
  }

  /** Forgets every address of a block (the block was deleted or lost its virtual affinity). */
  deleteBlock(block: string): void {
    for (const ip of [...(this.ipsByBlock.get(block) ?? [])]) this.releaseFromService(ip);
    this.ipsByBlock.delete(block);
  }

  ipsOf(svc: ServiceKey): string[] {
    return [...(this.ipsByService.get(serviceKeyString(svc))?.ips ?? [])];
  }

  ownerOf(ip: string): ServiceKey | undefined {
    return this.servicesByIP.get(ip);
  }

  serviceKeys(): ServiceKey[] {
    return [...this.ipsByService.values()].map((e) => e.key);
  }

  blockKeys(): string[] {
    return [...this.ipsByBlock.keys()];
  }

  ipsOfBlock(block: string): string[] {
    return [...(this.ipsByBlock.get(block) ?? [])];
  }

  allIPs(): string[] {
    return [...this.servicesByIP.keys()];
  }

  /** Throws an Error naming the first disagreement between the three maps. */
  assertConsistent(): void {
    for (const [ip, key] of this.servicesByIP) {
      if (this.ipsByService.get(serviceKeyString(key))?.ips.has(ip) !== true) throw new Error(`tracker: ${ip} owned by ${serviceKeyString(key)} but not in its set`);
    }
    for (const [id, { key, ips }] of this.ipsByService) {
      if (id !== serviceKeyString(key)) throw new Error(`tracker: service entry ${id} keyed wrongly`);
      if (ips.size === 0) throw new Error(`tracker: service ${id} has an empty set`);
      for (const ip of ips) {
        const owner = this.servicesByIP.get(ip);
        if (owner === undefined || serviceKeyString(owner) !== id) throw new Error(`tracker: ${ip} in ${id} but owned by ${owner === undefined ? 'nobody' : serviceKeyString(owner)}`);
      }
    }
    const seen = new Set<string>();
    for (const [block, ips] of this.ipsByBlock) {
      if (ips.size === 0) throw new Error(`tracker: block ${block} has an empty set`);
      for (const ip of ips) {
        if (seen.has(ip)) throw new Error(`tracker: ${ip} in two blocks`);
        seen.add(ip);
        if (!this.servicesByIP.has(ip)) throw new Error(`tracker: ${ip} in block ${block} has no owner`);
      }
    }
  }

  private dropFromService(ip: string, owner: ServiceKey): void {
    const id = serviceKeyString(owner);
    const entry = this.ipsByService.get(id);
    if (entry === undefined) return;
    entry.ips.delete(ip);
    // An empty set is dropped, so a Service with no addresses leaves no trace (design/calico-callers.md#allocation-tracker).
    if (entry.ips.size === 0) this.ipsByService.delete(id);
  }
}
