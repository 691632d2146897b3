// src/block/block-errors.ts
import { AlreadyExistsError, IpamError, ValidationError } from "@ipamkit/models";
var AddressNotInBlockError = class extends ValidationError {
  constructor(address, cidr) {
    super(`IP ${address} not in block ${cidr}`);
    this.address = address;
    this.cidr = cidr;
  }
  address;
  cidr;
  name = "AddressNotInBlockError";
};
var AffinityMismatchError = class extends ValidationError {
  constructor(cidr, expected, actual) {
    super(
      actual === void 0 ? `Attempt to assign from block ${cidr} with no affinity (expected ${expected})` : `Block affinity (${actual}) does not match provided (${expected}) for block ${cidr}`
    );
    this.cidr = cidr;
    this.expected = expected;
    this.actual = actual;
  }
  cidr;
  expected;
  actual;
  name = "AffinityMismatchError";
};
var AddressInUseError = class extends AlreadyExistsError {
  constructor(address, existingHandleId, inCooldown) {
    super(address, `Address already assigned in block: ${address}${inCooldown ? " (in cooldown)" : ""}`);
    this.address = address;
    this.existingHandleId = existingHandleId;
    this.inCooldown = inCooldown;
  }
  address;
  existingHandleId;
  inCooldown;
  name = "AddressInUseError";
};
var InvalidBlockArgumentError = class extends ValidationError {
  name = "InvalidBlockArgumentError";
};
var OwnerPreconditionError = class extends IpamError {
  constructor(address, field, detail) {
    super(`cannot set ${field} of ${address}: ${detail}`);
    this.address = address;
    this.field = field;
  }
  address;
  field;
  name = "OwnerPreconditionError";
  category = "stop-and-re-evaluate";
};

// src/block/host-reserved-attr.ts
var WINDOWS_RESERVED_HANDLE = "windows-reserved-ipam-handle";

// src/block/ip-address.ts
import {
  ValidationError as ValidationError2,
  bitsOf,
  blockCidrFor,
  canonicalCidr as canonicalCidrText,
  formatAddress as formatModelAddress,
  parseAddress as parseModelAddress,
  parseAddressOrCidr,
  parseCidr as parseModelCidr
} from "@ipamkit/models";
var InvalidAddressError = class extends ValidationError2 {
  constructor(input, what = "address") {
    super(`invalid IP ${what}: ${JSON.stringify(input)}`);
    this.input = input;
  }
  input;
  name = "InvalidAddressError";
};
function familyBits(version) {
  return bitsOf(version);
}
function parseAddress(text) {
  try {
    return parseModelAddress(text.trim());
  } catch {
    throw new InvalidAddressError(text);
  }
}
function formatAddress(version, value) {
  return formatModelAddress(version, value);
}
function parseCidr(text, allowBareAddress = false) {
  const trimmed = text.trim();
  if (!allowBareAddress && !trimmed.includes("/")) throw new InvalidAddressError(text, "CIDR");
  try {
    const { version, network, prefixLength } = allowBareAddress ? parseAddressOrCidr(trimmed) : parseModelCidr(trimmed);
    return { version, base: network, prefixLength, size: 1n << BigInt(bitsOf(version) - prefixLength) };
  } catch {
    throw new InvalidAddressError(text, "CIDR");
  }
}
function formatCidr(cidr) {
  return `${formatAddress(cidr.version, cidr.base)}/${cidr.prefixLength}`;
}
function canonicalCidr(text) {
  try {
    return canonicalCidrText(text.trim());
  } catch {
    throw new InvalidAddressError(text, "CIDR");
  }
}
function blockCidrForAddress(ip, blockPrefixLength) {
  try {
    return blockCidrFor(ip.trim(), blockPrefixLength);
  } catch {
    throw new InvalidAddressError(`${ip}/${blockPrefixLength}`, "CIDR");
  }
}

// src/block/ordinals.ts
var MAX_BLOCK_ADDRESSES = 65536;
function blockRange(block) {
  return parseCidr(block.cidr);
}
function blockSize(block) {
  const { size } = blockRange(block);
  if (size > BigInt(MAX_BLOCK_ADDRESSES)) {
    throw new InvalidBlockArgumentError(`block ${block.cidr} has more than ${MAX_BLOCK_ADDRESSES} addresses`);
  }
  return Number(size);
}
function ordinalOf(block, ip) {
  const range = blockRange(block);
  const address = parseAddress(ip);
  const offset = address.value - range.base;
  if (address.version !== range.version || offset < 0n || offset >= range.size) {
    throw new AddressNotInBlockError(ip, block.cidr);
  }
  return Number(offset);
}
function addressOf(block, ordinal) {
  const range = blockRange(block);
  if (!Number.isInteger(ordinal) || ordinal < 0 || BigInt(ordinal) >= range.size) {
    throw new AddressNotInBlockError(`ordinal ${ordinal}`, block.cidr);
  }
  return formatAddress(range.version, range.base + BigInt(ordinal));
}
function withBlockPrefix(block, ip) {
  return `${ip}/${blockRange(block).prefixLength}`;
}

// src/block/block-state.ts
function sanitizeHandle(handleId) {
  if (handleId === void 0) return void 0;
  const cut = handleId.indexOf("\r");
  return cut < 0 ? handleId : handleId.slice(0, cut);
}
function cloneAttribute(attribute) {
  const copy = {};
  if (attribute.handleId !== void 0) copy.handleId = attribute.handleId;
  if (attribute.activeOwnerAttrs !== void 0) copy.activeOwnerAttrs = { ...attribute.activeOwnerAttrs };
  if (attribute.alternateOwnerAttrs !== void 0) copy.alternateOwnerAttrs = { ...attribute.alternateOwnerAttrs };
  if (attribute.releasedAt !== void 0) copy.releasedAt = attribute.releasedAt;
  return copy;
}
function cloneBlock(block) {
  const copy = {
    cidr: block.cidr,
    allocations: [...block.allocations],
    unallocated: [...block.unallocated],
    attributes: block.attributes.map(cloneAttribute),
    sequenceNumber: block.sequenceNumber,
    sequenceNumberForAllocation: { ...block.sequenceNumberForAllocation },
    deleted: block.deleted
  };
  if (block.affinity !== void 0) copy.affinity = { ...block.affinity };
  if (block.affinityClaimTime !== void 0) copy.affinityClaimTime = block.affinityClaimTime;
  return copy;
}
function isEmptyMap(map) {
  return map === void 0 || Object.keys(map).length === 0;
}
function sameOwnerAttrs(a, b) {
  if (isEmptyMap(a) || isEmptyMap(b)) return isEmptyMap(a) && isEmptyMap(b);
  const aKeys = Object.keys(a ?? {});
  if (aKeys.length !== Object.keys(b ?? {}).length) return false;
  return aKeys.every((k) => Object.hasOwn(b ?? {}, k) && b?.[k] === a?.[k]);
}
function makeAttribute(handleId, attrs) {
  const attribute = {};
  if (handleId !== void 0) attribute.handleId = handleId;
  if (!isEmptyMap(attrs)) attribute.activeOwnerAttrs = { ...attrs };
  return attribute;
}
function findOrAddAttribute(block, handleId, attrs) {
  const index = block.attributes.findIndex(
    (a) => a.handleId === handleId && a.releasedAt === void 0 && isEmptyMap(a.alternateOwnerAttrs) && sameOwnerAttrs(a.activeOwnerAttrs, attrs)
  );
  if (index >= 0) return index;
  block.attributes.push(makeAttribute(handleId, attrs));
  return block.attributes.length - 1;
}
function compactAttributes(block) {
  const used = /* @__PURE__ */ new Set();
  for (const index of block.allocations) if (index !== null) used.add(index);
  if (used.size === block.attributes.length && [...used].every((i) => i < block.attributes.length)) return false;
  const remap = /* @__PURE__ */ new Map();
  const kept = [];
  block.attributes.forEach((attribute, index) => {
    if (!used.has(index)) return;
    remap.set(index, kept.length);
    kept.push(attribute);
  });
  const dropped = kept.length !== block.attributes.length;
  block.attributes = kept;
  block.allocations = block.allocations.map((index) => index === null ? null : remap.get(index) ?? null);
  return dropped;
}
function formatWholeSeconds(date) {
  return new Date(Math.floor(date.getTime() / 1e3) * 1e3).toISOString().replace(".000Z", "Z");
}
function formatReleasedAt(date) {
  return new Date(Math.ceil(date.getTime() / 1e3) * 1e3).toISOString().replace(".000Z", "Z");
}

// src/block/block-owner.ts
function affinityString(owner) {
  return `${owner.type}:${owner.host}`;
}
function hostOwnsBlock(block, owner) {
  return block.affinity?.type === owner.type && block.affinity.host === owner.host;
}
function assertAffinity(block, requiredOwner) {
  if (requiredOwner === void 0 || hostOwnsBlock(block, requiredOwner)) return;
  throw new AffinityMismatchError(
    block.cidr,
    affinityString(requiredOwner),
    block.affinity === void 0 ? void 0 : affinityString(block.affinity)
  );
}

// src/block/new-block.ts
function unixNanos(date) {
  return BigInt(date.getTime()) * 1000000n;
}
function newBlock(args) {
  const n = blockSize({ cidr: args.cidr });
  const start = args.hostReserved?.startOfBlock ?? 0;
  const end = args.hostReserved?.endOfBlock ?? 0;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < 0 || start + end > n) {
    throw new InvalidBlockArgumentError(
      `host-reserved ordinals (start ${start}, end ${end}) do not fit a block of ${n} addresses`
    );
  }
  const block = {
    cidr: formatCidr(blockRange({ cidr: args.cidr })),
    allocations: new Array(n).fill(null),
    unallocated: [],
    attributes: [],
    sequenceNumber: unixNanos(args.now),
    sequenceNumberForAllocation: {},
    deleted: false
  };
  if (args.owner !== void 0) {
    block.affinity = { ...args.owner };
    block.affinityClaimTime = formatWholeSeconds(args.claimTime ?? args.now);
  }
  for (let o = start; o < n - end; o += 1) block.unallocated.push(o);
  if (args.hostReserved !== void 0 && start + end > 0) {
    block.attributes.push({ handleId: args.hostReserved.handle, activeOwnerAttrs: { note: args.hostReserved.note } });
    for (let o = 0; o < start; o += 1) block.allocations[o] = 0;
    for (let o = n - end; o < n; o += 1) block.allocations[o] = 0;
  }
  return block;
}

// src/block/auto-assign-in-block.ts
function autoAssignInBlock(block, args) {
  if (!Number.isInteger(args.num) || args.num < 0) {
    throw new InvalidBlockArgumentError(`cannot assign ${args.num} addresses`);
  }
  assertAffinity(block, args.requiredOwner);
  const range = blockRange(block);
  const taken = [];
  const skipped = [];
  let cursor = 0;
  for (; cursor < block.unallocated.length && taken.length < args.num; cursor += 1) {
    const ordinal = block.unallocated[cursor];
    if (ordinal === void 0) continue;
    if (args.reservations?.matchesValue(range.version, range.base + BigInt(ordinal)) === true) skipped.push(ordinal);
    else taken.push(ordinal);
  }
  if (taken.length === 0) return { block, ips: [], ipNets: [], ordinals: [] };
  const next = cloneBlock(block);
  const index = findOrAddAttribute(next, args.handleId, args.attrs);
  for (const ordinal of taken) {
    next.allocations[ordinal] = index;
    next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
  }
  next.unallocated = [...skipped, ...block.unallocated.slice(cursor)];
  const ips = taken.map((o) => formatAddress(range.version, range.base + BigInt(o)));
  return { block: next, ips, ipNets: ips.map((ip) => `${ip}/${range.prefixLength}`), ordinals: taken };
}

// src/block/assign-in-block.ts
function assignInBlock(block, args) {
  assertAffinity(block, args.requiredOwner);
  const ordinal = ordinalOf(block, args.ip);
  const existing = block.allocations[ordinal];
  if (existing !== null && existing !== void 0) {
    const attribute = block.attributes[existing];
    throw new AddressInUseError(args.ip, sanitizeHandle(attribute?.handleId), attribute?.releasedAt !== void 0);
  }
  const next = cloneBlock(block);
  next.allocations[ordinal] = findOrAddAttribute(next, args.handleId, args.attrs);
  next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
  const position = next.unallocated.indexOf(ordinal);
  if (position >= 0) next.unallocated.splice(position, 1);
  return { block: next, ordinal };
}

// src/block/release-in-block.ts
import { BadHandleError, BadSequenceNumberError } from "@ipamkit/models";

// src/block/garbage-collect-cooldown.ts
function cooledDown(releasedAt, { cooldownSeconds, now }) {
  if (cooldownSeconds <= 0) return true;
  const at = Date.parse(releasedAt);
  if (Number.isNaN(at)) return true;
  return at + cooldownSeconds * 1e3 <= now.getTime();
}
function collectInPlace(block, args) {
  const freed = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null) return;
    const releasedAt = block.attributes[index]?.releasedAt;
    if (releasedAt === void 0 || !cooledDown(releasedAt, args)) return;
    block.allocations[ordinal] = null;
    block.unallocated.push(ordinal);
    delete block.sequenceNumberForAllocation[String(ordinal)];
    freed.push(ordinal);
  });
  const compacted = compactAttributes(block);
  return { freed, changed: freed.length > 0 || compacted };
}
function garbageCollectCooldown(block, args) {
  const next = cloneBlock(block);
  const { freed, changed } = collectInPlace(next, args);
  return changed ? { block: next, changed, freed } : { block, changed, freed };
}

// src/block/release-in-block.ts
function releaseInBlock(block, args) {
  const byOrdinal = /* @__PURE__ */ new Map();
  for (const release of args.releases) {
    const ordinal = ordinalOf(block, release.address);
    byOrdinal.delete(ordinal);
    byOrdinal.set(ordinal, release);
  }
  const toRelease = [];
  const unallocated = [];
  const handleDeltas = /* @__PURE__ */ new Map();
  for (const [ordinal, release] of byOrdinal) {
    const address = addressOf(block, ordinal);
    if (release.sequenceNumber !== void 0) {
      const stored2 = block.sequenceNumberForAllocation[String(ordinal)] ?? 0n;
      if (stored2 !== release.sequenceNumber) throw new BadSequenceNumberError(release.sequenceNumber, stored2, address);
    }
    const index = block.allocations[ordinal];
    const attribute = index === null || index === void 0 ? void 0 : block.attributes[index];
    if (attribute === void 0 || attribute.releasedAt !== void 0) {
      unallocated.push(address);
      continue;
    }
    const stored = sanitizeHandle(attribute.handleId);
    const requested = sanitizeHandle(release.handle) ?? "";
    if (requested !== "" && requested !== (stored ?? "")) throw new BadHandleError(requested, stored, address);
    if (stored !== void 0 && stored !== "") handleDeltas.set(stored, (handleDeltas.get(stored) ?? 0) + 1);
    toRelease.push(ordinal);
  }
  const next = cloneBlock(block);
  if (toRelease.length > 0) {
    next.attributes.push({ releasedAt: formatReleasedAt(args.now) });
    const cooldownIndex = next.attributes.length - 1;
    for (const ordinal of toRelease) {
      next.allocations[ordinal] = cooldownIndex;
      next.sequenceNumberForAllocation[String(ordinal)] = block.sequenceNumber;
    }
  }
  const gc = collectInPlace(next, args);
  const changed = toRelease.length > 0 || gc.changed;
  return {
    block: changed ? next : block,
    released: toRelease.map((o) => addressOf(block, o)),
    unallocated,
    handleDeltas,
    changed
  };
}

// src/block/release-handle-in-block.ts
function releaseHandleInBlock(block, args) {
  const handleId = sanitizeHandle(args.handleId);
  const matching = /* @__PURE__ */ new Set();
  block.attributes.forEach((attribute, index) => {
    if (attribute.releasedAt === void 0 && sanitizeHandle(attribute.handleId) === handleId) matching.add(index);
  });
  const toRelease = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null || !matching.has(index)) return;
    const stored = block.sequenceNumberForAllocation[String(ordinal)] ?? 0n;
    if (args.sequenceNumber === void 0 || args.sequenceNumber === stored) toRelease.push(ordinal);
  });
  const next = cloneBlock(block);
  if (toRelease.length > 0) {
    next.attributes.push({ releasedAt: formatReleasedAt(args.now) });
    const cooldownIndex = next.attributes.length - 1;
    for (const ordinal of toRelease) next.allocations[ordinal] = cooldownIndex;
  }
  const gc = collectInPlace(next, args);
  const changed = toRelease.length > 0 || gc.changed;
  return {
    block: changed ? next : block,
    count: toRelease.length,
    released: toRelease.map((o) => addressOf(block, o)),
    changed
  };
}

// src/block/block-queries.ts
import { IPInCooldownError, NotFoundError } from "@ipamkit/models";
function isEmpty(block) {
  return block.allocations.every((index) => {
    if (index === null) return true;
    return block.attributes[index]?.handleId?.toLowerCase() === WINDOWS_RESERVED_HANDLE;
  });
}
function numFree(block, reservations) {
  if (reservations === void 0) return block.unallocated.length;
  const range = blockRange(block);
  const reserved = reservations.countIn(block.cidr);
  if (reserved === 0n) return block.unallocated.length;
  if (reserved === range.size) return 0;
  return block.unallocated.filter((o) => !reservations.matchesValue(range.version, range.base + BigInt(o))).length;
}
function numReserved(block, reservations) {
  return Number(reservations.countIn(block.cidr));
}
function inUseCount(block) {
  return block.allocations.length - block.unallocated.length;
}
function inUseIPs(block) {
  const range = blockRange(block);
  const out = [];
  block.allocations.forEach((index, ordinal) => {
    if (index !== null) out.push(formatAddress(range.version, range.base + BigInt(ordinal)));
  });
  return out;
}
function ipsForHandle(block, handleId) {
  const wanted = sanitizeHandle(handleId);
  const out = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null) return;
    const attribute = block.attributes[index];
    if (attribute?.releasedAt === void 0 && sanitizeHandle(attribute?.handleId) === wanted) {
      out.push(addressOf(block, ordinal));
    }
  });
  return out;
}
function addressState(block, ip) {
  const index = block.allocations[ordinalOf(block, ip)];
  if (index === null || index === void 0) return { state: "free" };
  const attribute = block.attributes[index];
  if (attribute?.releasedAt !== void 0) return { state: "cooldown", releasedAt: attribute.releasedAt };
  const handleId = sanitizeHandle(attribute?.handleId);
  return handleId === void 0 ? { state: "allocated" } : { state: "allocated", handleId };
}
function attributesFor(block, ip) {
  const index = block.allocations[ordinalOf(block, ip)];
  if (index === null || index === void 0) throw new NotFoundError(ip, `IP ${ip} is unassigned`);
  const attribute = block.attributes[index];
  if (attribute === void 0) throw new NotFoundError(ip, `IP ${ip} points at a missing attribute`);
  if (attribute.releasedAt !== void 0) throw new IPInCooldownError(ip);
  const out = {};
  const handleId = sanitizeHandle(attribute.handleId);
  if (handleId !== void 0) out.handleId = handleId;
  if (attribute.activeOwnerAttrs !== void 0) out.activeOwnerAttrs = { ...attribute.activeOwnerAttrs };
  if (attribute.alternateOwnerAttrs !== void 0) out.alternateOwnerAttrs = { ...attribute.alternateOwnerAttrs };
  return out;
}
function sequenceNumberFor(block, ip) {
  return block.sequenceNumberForAllocation[String(ordinalOf(block, ip))];
}

// src/block/set-owner-attributes-in-block.ts
import { BadHandleError as BadHandleError2, IPInCooldownError as IPInCooldownError2, NotFoundError as NotFoundError2 } from "@ipamkit/models";
function ownerMatches(owner, attrs) {
  if (owner.name === "" && owner.namespace === "") return attrs === void 0 || Object.keys(attrs).length === 0;
  return attrs?.pod === owner.name && attrs.namespace === owner.namespace;
}
function validateOwnerAttributeUpdates(updates, pre = {}) {
  const bad = (message) => {
    throw new InvalidBlockArgumentError(message);
  };
  if (updates.clearActiveOwner === true && updates.activeOwnerAttrs !== void 0) bad("cannot both set and clear the active owner");
  if (updates.clearAlternateOwner === true && updates.alternateOwnerAttrs !== void 0) bad("cannot both set and clear the alternate owner");
  if (pre.expectedActiveOwner !== void 0 && pre.verifyActiveOwnerEmpty === true) bad("cannot expect an active owner and verify it is empty");
  if (pre.expectedAlternateOwner !== void 0 && pre.verifyAlternateOwnerEmpty === true) bad("cannot expect an alternate owner and verify it is empty");
}
function describe(attrs) {
  return `pod=${attrs?.pod ?? ""} namespace=${attrs?.namespace ?? ""}`;
}
function setOwnerAttributesInBlock(block, args) {
  const { updates, preconditions: pre = {} } = args;
  validateOwnerAttributeUpdates(updates, pre);
  const ordinal = ordinalOf(block, args.ip);
  const index = block.allocations[ordinal];
  const attribute = index === null || index === void 0 ? void 0 : block.attributes[index];
  if (attribute === void 0) throw new NotFoundError2(args.ip, `IP ${args.ip} is unassigned`);
  if (attribute.releasedAt !== void 0) throw new IPInCooldownError2(args.ip);
  const stored = sanitizeHandle(attribute.handleId);
  if (stored !== sanitizeHandle(args.handleId)) throw new BadHandleError2(args.handleId, stored, args.ip);
  const check = (field, expected) => {
    if (expected !== void 0 && !ownerMatches(expected, attribute[field])) {
      throw new OwnerPreconditionError(
        args.ip,
        field,
        `expected pod=${expected.name} namespace=${expected.namespace} but found ${describe(attribute[field])}`
      );
    }
  };
  const empty = { namespace: "", name: "" };
  const activeChanges = updates.activeOwnerAttrs !== void 0 || updates.clearActiveOwner === true;
  const alternateChanges = updates.alternateOwnerAttrs !== void 0 || updates.clearAlternateOwner === true;
  if (activeChanges) check("activeOwnerAttrs", pre.verifyActiveOwnerEmpty === true ? empty : pre.expectedActiveOwner);
  if (alternateChanges) check("alternateOwnerAttrs", pre.verifyAlternateOwnerEmpty === true ? empty : pre.expectedAlternateOwner);
  const next = cloneBlock(block);
  const own = { ...attribute };
  if (updates.clearActiveOwner === true) delete own.activeOwnerAttrs;
  else if (updates.activeOwnerAttrs !== void 0) own.activeOwnerAttrs = { ...updates.activeOwnerAttrs };
  if (updates.clearAlternateOwner === true) delete own.alternateOwnerAttrs;
  else if (updates.alternateOwnerAttrs !== void 0) own.alternateOwnerAttrs = { ...updates.alternateOwnerAttrs };
  next.attributes.push(own);
  next.allocations[ordinal] = next.attributes.length - 1;
  compactAttributes(next);
  return { block: next };
}

// src/block/block-writes.ts
function bumpSequenceNumber(block) {
  const next = cloneBlock(block);
  next.sequenceNumber = block.sequenceNumber + 1n;
  return next;
}
function clearAffinity(block) {
  const next = cloneBlock(block);
  delete next.affinity;
  delete next.affinityClaimTime;
  return next;
}
function withAffinity(block, owner, claimTime) {
  const next = cloneBlock(block);
  next.affinity = { ...owner };
  next.affinityClaimTime = formatWholeSeconds(claimTime);
  return next;
}

// src/block/handle-counts.ts
import { MaxAllocReachedError, ValidationError as ValidationError3 } from "@ipamkit/models";
var HandleMaxAllocReachedError = class extends MaxAllocReachedError {
  constructor(handleId, currentCount, maxAlloc) {
    super(`handle ${handleId} already has ${currentCount} allocation(s), cannot allocate more (maxAlloc=${maxAlloc})`);
    this.handleId = handleId;
    this.currentCount = currentCount;
    this.maxAlloc = maxAlloc;
  }
  handleId;
  currentCount;
  maxAlloc;
  name = "HandleMaxAllocReachedError";
};
var HandleCountError = class extends ValidationError3 {
  name = "HandleCountError";
};
function handleCountForFamily(handle, version) {
  return Object.entries(handle.block).filter(([cidr]) => cidr.includes(":") === (version === 6)).reduce((sum, [, count]) => sum + count, 0);
}
function incrementHandleCount(args) {
  const block = { ...args.handle?.block ?? {} };
  const max = args.maxAllocPerIPVersion ?? 0;
  if (max > 0) {
    const current = handleCountForFamily({ block }, args.blockCidr.includes(":") ? 6 : 4);
    if (current + args.num > max) throw new HandleMaxAllocReachedError(args.handleId, current, max);
  }
  block[args.blockCidr] = (block[args.blockCidr] ?? 0) + args.num;
  return { handleId: args.handle?.handleId ?? args.handleId, block, deleted: false };
}
function decrementHandleCount(args) {
  const current = args.handle.block[args.blockCidr];
  if (current === void 0) {
    throw new HandleCountError(`Tried to decrement block ${args.blockCidr} by ${args.num} but it isn't linked to handle ${args.handle.handleId}`);
  }
  if (current - args.num < 0) {
    throw new HandleCountError(`Decrementing block ${args.blockCidr} by ${args.num} would leave handle ${args.handle.handleId} negative`);
  }
  const block = { ...args.handle.block };
  if (current - args.num === 0) {
    delete block[args.blockCidr];
  } else {
    block[args.blockCidr] = current - args.num;
  }
  return { ...args.handle, block };
}

// src/reservations/parse-reserved-cidrs.ts
function parseReservedCidrs(reservations) {
  const cidrs = [];
  const invalid = [];
  for (const reservation of reservations) {
    for (const entry of reservation.reservedCIDRs) {
      const text = entry.trim();
      if (text === "") continue;
      try {
        cidrs.push(parseCidr(text, true));
      } catch {
        invalid.push(`${reservation.name}: ${entry}`);
      }
    }
  }
  return { cidrs, invalid };
}

// src/utilization/cidr-ranges.ts
function rangeOfCidr(cidr) {
  return { version: cidr.version, start: cidr.base, end: cidr.base + cidr.size };
}
function compare(a, b) {
  if (a.version !== b.version) return a.version - b.version;
  if (a.start === b.start) return 0;
  return a.start < b.start ? -1 : 1;
}
function normalizeRanges(ranges) {
  const sorted = ranges.filter((r) => r.end > r.start).sort(compare);
  const out = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last?.version === r.version && r.start <= last.end) {
      if (r.end > last.end) out[out.length - 1] = { ...last, end: r.end };
    } else {
      out.push({ ...r });
    }
  }
  return out;
}
function unionRanges(a, b) {
  return normalizeRanges([...a, ...b]);
}
function intersectRanges(a, b) {
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === void 0 || y === void 0) break;
    if (x.version !== y.version) {
      if (x.version < y.version) i += 1;
      else j += 1;
      continue;
    }
    const start = x.start > y.start ? x.start : y.start;
    const end = x.end < y.end ? x.end : y.end;
    if (start < end) out.push({ version: x.version, start, end });
    if (x.end < y.end) i += 1;
    else j += 1;
  }
  return out;
}
function subtractRanges(a, b) {
  const out = [];
  for (const x of a) {
    let cursor = x.start;
    for (const y of b) {
      if (y.version !== x.version || y.end <= cursor) continue;
      if (y.start >= x.end) break;
      if (y.start > cursor) out.push({ version: x.version, start: cursor, end: y.start });
      cursor = y.end;
      if (cursor >= x.end) break;
    }
    if (cursor < x.end) out.push({ version: x.version, start: cursor, end: x.end });
  }
  return out;
}
function rangesSize(set) {
  return set.reduce((sum, r) => sum + (r.end - r.start), 0n);
}
function rangesContain(set, version, value) {
  let lo = 0;
  let hi = set.length - 1;
  while (lo <= hi) {
    const mid = lo + hi >> 1;
    const r = set[mid];
    if (r === void 0) return false;
    if (r.version < version || r.version === version && r.end <= value) lo = mid + 1;
    else if (r.version > version || r.start > value) hi = mid - 1;
    else return true;
  }
  return false;
}

// src/reservations/reservation-filter.ts
var NO_RESERVATIONS = createReservationFilter([]);
function createReservationFilter(reservations) {
  const { cidrs, invalid } = parseReservedCidrs(reservations);
  const reserved = normalizeRanges(cidrs.map(rangeOfCidr));
  const countIn = (cidr) => rangesSize(intersectRanges([rangeOfCidr(parseCidr(cidr))], reserved));
  return {
    reserved,
    invalid,
    matchesAddress: (ip) => {
      const { version, value } = parseAddress(ip);
      return rangesContain(reserved, version, value);
    },
    matchesValue: (version, value) => rangesContain(reserved, version, value),
    matchesSome: (cidr) => countIn(cidr) > 0n,
    matchesWholeCidr: (cidr) => countIn(cidr) === parseCidr(cidr).size,
    countIn
  };
}

// src/utilization/num-reserved-ips-in-cidr.ts
function numReservedIPsInCIDR(cidr, reservations) {
  parseCidr(cidr);
  return createReservationFilter(reservations).countIn(cidr);
}

// src/utilization/compute-utilization.ts
var ORPHANED_BLOCKS_POOL = { name: "orphaned allocation blocks", cidr: "0.0.0.0/0" };
function computeUtilization(args) {
  const filter = args.poolsFilter ?? [];
  const selected = filter.length === 0 ? args.pools : args.pools.filter((p) => filter.includes(p.name) || filter.includes(p.cidr));
  const empty = (name, cidr) => ({
    name,
    cidr,
    capacity: 0n,
    inUse: 0n,
    reserved: 0n,
    available: 0n,
    blocks: []
  });
  const buckets = selected.map((pool) => ({
    result: empty(pool.name, pool.cidr),
    range: rangeOfCidr(parseCidr(pool.cidr)),
    blockRanges: []
  }));
  if (filter.length === 0) {
    buckets.push({
      result: empty(ORPHANED_BLOCKS_POOL.name, ORPHANED_BLOCKS_POOL.cidr),
      range: rangeOfCidr(parseCidr(ORPHANED_BLOCKS_POOL.cidr)),
      blockRanges: []
    });
  }
  const reservations = createReservationFilter(args.reservations);
  for (const block of args.blocks) {
    const range = rangeOfCidr(blockRange(block));
    const bucket = buckets.find((b) => intersectRanges([b.range], [range]).length > 0);
    if (bucket === void 0) continue;
    bucket.blockRanges.push(range);
    bucket.result.blocks.push({
      cidr: block.cidr,
      capacity: range.end - range.start,
      inUse: BigInt(inUseCount(block)),
      reserved: reservations.countIn(block.cidr),
      available: BigInt(numFree(block, reservations))
    });
  }
  const realBuckets = filter.length === 0 ? buckets.slice(0, -1) : buckets;
  for (const bucket of realBuckets) {
    const pool = [bucket.range];
    const assignable = subtractRanges(pool, reservations.reserved);
    const outsideBlocks = subtractRanges(assignable, normalizeRanges(bucket.blockRanges));
    const r = bucket.result;
    r.capacity = bucket.range.end - bucket.range.start;
    r.reserved = r.capacity - rangesSize(assignable);
    r.inUse = r.blocks.reduce((sum, b) => sum + b.inUse, 0n);
    r.available = r.blocks.reduce((sum, b) => sum + b.available, 0n) + rangesSize(outsideBlocks);
  }
  return buckets.map((b) => b.result);
}

// src/client/create-ipam-client.ts
import { platform } from "os";

// src/client/affinity-api.ts
import {
  ConflictError as ConflictError6,
  NotFoundError as NotFoundError10,
  parseCidr as parseCidr3,
  ValidationError as ValidationError10,
  canonicalCidr as canonicalCidr3,
  cidrContains as cidrContains4
} from "@ipamkit/models";

// src/client/affinity-claims.ts
import {
  AlreadyExistsError as AlreadyExistsError2,
  NotFoundError as NotFoundError4
} from "@ipamkit/models";

// src/client/client-errors.ts
import { IpamError as IpamError2, ValidationError as ValidationError4 } from "@ipamkit/models";
var MaxRetriesError = class extends IpamError2 {
  constructor(operation, attempts, options) {
    super(`Max retries hit - excessive concurrent IPAM requests (${operation}, ${attempts} attempts)`, options);
    this.operation = operation;
    this.attempts = attempts;
  }
  operation;
  attempts;
  name = "MaxRetriesError";
  category = "transient";
};
var NoFreeBlocksError = class extends IpamError2 {
  name = "NoFreeBlocksError";
  category = "state";
  constructor() {
    super("No Free Blocks");
  }
};
var BlockClaimConflictError = class extends IpamError2 {
  constructor(cidr, owner) {
    super(`${cidr} already claimed by ${owner ?? "(no affinity)"}`);
    this.cidr = cidr;
    this.owner = owner;
  }
  cidr;
  owner;
  name = "BlockClaimConflictError";
  category = "transient";
};
var StaleAffinityError = class extends IpamError2 {
  constructor(cidr, host) {
    super(`affinity of ${host} for ${cidr} did not match the block and was removed`);
    this.cidr = cidr;
    this.host = host;
  }
  cidr;
  host;
  name = "StaleAffinityError";
  category = "transient";
};
var InsufficientIPsByHandleError = class extends IpamError2 {
  constructor(handleId, existingCount, requiredCount) {
    super(`handle ${handleId} has ${existingCount} IPs allocated but requires ${requiredCount} (concurrent operation in progress)`);
    this.handleId = handleId;
    this.existingCount = existingCount;
    this.requiredCount = requiredCount;
  }
  handleId;
  existingCount;
  requiredCount;
  name = "InsufficientIPsByHandleError";
  category = "transient";
};
var InvalidSizeError = class extends ValidationError4 {
  constructor(cidr) {
    super(`The requested CIDR (${cidr}) is smaller than the minimum.`);
    this.cidr = cidr;
  }
  cidr;
  name = "InvalidSizeError";
};
var BlockChangedError = class extends IpamError2 {
  constructor(cidr) {
    super(`IPAM block ${cidr} updated since we last read it`);
    this.cidr = cidr;
  }
  cidr;
  name = "BlockChangedError";
  category = "stop-and-re-evaluate";
};
var AlternateOwnerEmptyError = class extends IpamError2 {
  name = "AlternateOwnerEmptyError";
  category = "stop-and-re-evaluate";
};
var AlternateOwnerMismatchError = class extends IpamError2 {
  name = "AlternateOwnerMismatchError";
  category = "stop-and-re-evaluate";
};
var BlockFilledError = class extends IpamError2 {
  constructor(cidr, free, required) {
    super(`Block '${cidr}' has ${free} free ips which is less than ${required} ips required.`);
    this.cidr = cidr;
    this.free = free;
    this.required = required;
  }
  cidr;
  free;
  required;
  name = "BlockFilledError";
  category = "transient";
};

// src/client/client-deps.ts
import {
  NotFoundError as NotFoundError3
} from "@ipamkit/models";
async function orUndefined(promise) {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof NotFoundError3) return void 0;
    throw err;
  }
}
function collectedBlock(stored, config, now) {
  const gc = garbageCollectCooldown(stored, { cooldownSeconds: config.ipCooldownSeconds, now });
  return { block: gc.block, changed: gc.changed };
}
function asUpdate(original, next) {
  const bumped = bumpSequenceNumber(next);
  return original.uid === void 0 ? { ...bumped, revision: original.revision } : { ...bumped, revision: original.revision, uid: original.uid };
}
function unversioned(value) {
  const { revision: _revision, uid: _uid, ...rest } = value;
  return rest;
}
function hintKey(type, host, version) {
  return `${type}:${host}:v${version}`;
}

// src/client/affinity-claims.ts
function affinityKey(owner, cidr) {
  return { host: owner.host, type: owner.type, cidr };
}
function ownerOf(affinity) {
  return { type: affinity.type, host: affinity.host };
}
async function deleteAffinityQuietly(deps, affinity) {
  await deps.ds.affinities.delete(affinity).catch(() => void 0);
}
async function getPendingAffinity(deps, owner, cidr) {
  try {
    return await deps.ds.affinities.create({ ...affinityKey(owner, cidr), state: "pending", deleted: false });
  } catch (err) {
    if (!(err instanceof AlreadyExistsError2)) throw err;
  }
  const existing = await deps.ds.affinities.get(affinityKey(owner, cidr));
  if (existing.state === "confirmed") return existing;
  return deps.ds.affinities.update({ ...existing, state: "pending" });
}
async function confirmAffinity(deps, affinity) {
  try {
    return await deps.ds.affinities.update({ ...affinity, state: "confirmed" });
  } catch (err) {
    const current = await orUndefined(deps.ds.affinities.get(affinityKey(ownerOf(affinity), affinity.cidr)));
    if (current?.state === "confirmed") return current;
    throw err;
  }
}
async function claimAffineBlock(deps, affinity, hostReserved) {
  const owner = ownerOf(affinity);
  const now = deps.clock.now();
  const fresh = newBlock({ cidr: affinity.cidr, owner, now, ...hostReserved === void 0 ? {} : { hostReserved } });
  try {
    const created = await deps.ds.blocks.create(fresh);
    await confirmAffinity(deps, affinity);
    return created;
  } catch (err) {
    if (!(err instanceof AlreadyExistsError2)) throw err;
  }
  const existing = await deps.ds.blocks.get(affinity.cidr);
  if (hostOwnsBlock(existing, owner)) {
    await confirmAffinity(deps, affinity);
    return existing;
  }
  await deleteAffinityQuietly(deps, affinity);
  throw new BlockClaimConflictError(affinity.cidr, existing.affinity === void 0 ? void 0 : `${existing.affinity.type}:${existing.affinity.host}`);
}
async function getBlockFromAffinity(deps, affinity, hostReserved) {
  const owner = ownerOf(affinity);
  const block = await orUndefined(deps.ds.blocks.get(affinity.cidr));
  if (block === void 0) {
    const pending2 = await deps.ds.affinities.update({ ...affinity, state: "pending" });
    return claimAffineBlock(deps, pending2, hostReserved);
  }
  if (!hostOwnsBlock(block, owner)) {
    await deps.ds.affinities.delete(affinity).catch((err) => {
      if (!(err instanceof NotFoundError4)) throw err;
    });
    throw new StaleAffinityError(affinity.cidr, affinity.host);
  }
  if (affinity.state === "confirmed" || affinity.state === "") return block;
  const pending = await deps.ds.affinities.update({ ...affinity, state: "pending" });
  const bumped = await deps.ds.blocks.update(asUpdate(block, unversioned(block)));
  await deps.ds.affinities.update({ ...pending, state: "confirmed" });
  return bumped;
}

// src/client/auto-assign.ts
import { hostname as osHostname } from "os";
import {
  BlockNotEmptyError as BlockNotEmptyError2,
  ConflictError as ConflictError5,
  ipVersionOfCidr as ipVersionOfCidr2,
  NotFoundError as NotFoundError9,
  UseRequiredError,
  ValidationError as ValidationError9,
  DEFAULT_MAX_BLOCKS_PER_HOST
} from "@ipamkit/models";

// src/client/affine-fast-path.ts
import { ConflictError as ConflictError2 } from "@ipamkit/models";

// src/client/assign-context.ts
import {
  cidrContains as cidrContains2,
  NoQualifiedPoolError as NoQualifiedPoolError2,
  selectsNode as selectsNode2,
  ValidationError as ValidationError6
} from "@ipamkit/models";

// src/client/ipam-config-ops.ts
import {
  DEFAULT_IPAM_CONFIG,
  NotFoundError as NotFoundError5,
  StrictAffinityError,
  validateIPAMConfig
} from "@ipamkit/models";
async function readIpamConfig(reader, windowsHost) {
  let config;
  try {
    const stored = await reader.ipamConfig.get();
    config = {
      strictAffinity: stored.strictAffinity,
      autoAllocateBlocks: stored.autoAllocateBlocks,
      maxBlocksPerHost: stored.maxBlocksPerHost,
      ipCooldownSeconds: stored.ipCooldownSeconds
    };
    if (stored.kubeVirtVMAddressPersistence !== void 0) config.kubeVirtVMAddressPersistence = stored.kubeVirtVMAddressPersistence;
  } catch (err) {
    if (!(err instanceof NotFoundError5)) throw err;
    config = { ...DEFAULT_IPAM_CONFIG };
  }
  if (windowsHost && !config.strictAffinity) {
    throw new StrictAffinityError("global strict affinity should not be false for Windows node");
  }
  return config;
}
function sameConfig(a, b) {
  return a.strictAffinity === b.strictAffinity && a.autoAllocateBlocks === b.autoAllocateBlocks && a.maxBlocksPerHost === b.maxBlocksPerHost && a.ipCooldownSeconds === b.ipCooldownSeconds && a.kubeVirtVMAddressPersistence === b.kubeVirtVMAddressPersistence;
}
async function writeIpamConfig(ds, cfg, windowsHost) {
  let current;
  try {
    current = await readIpamConfig(ds, windowsHost);
  } catch (err) {
    if (!(err instanceof StrictAffinityError)) throw err;
  }
  if (current !== void 0 && sameConfig(current, cfg)) return;
  validateIPAMConfig(cfg);
  const value = {
    strictAffinity: cfg.strictAffinity,
    autoAllocateBlocks: cfg.autoAllocateBlocks,
    maxBlocksPerHost: cfg.maxBlocksPerHost,
    ipCooldownSeconds: cfg.ipCooldownSeconds
  };
  if (cfg.kubeVirtVMAddressPersistence !== void 0) value.kubeVirtVMAddressPersistence = cfg.kubeVirtVMAddressPersistence;
  try {
    const existing = await ds.ipamConfig.get();
    await ds.ipamConfig.update({ ...value, revision: existing.revision });
  } catch (err) {
    if (!(err instanceof NotFoundError5)) throw err;
    await ds.ipamConfig.create(value);
  }
}

// src/client/pool-qualification.ts
import {
  applyIPPoolDefaults,
  bitsOf as bitsOf2,
  canonicalCidr as canonicalCidr2,
  cidrContains,
  NoQualifiedPoolError,
  ValidationError as ValidationError5,
  isPoolEnabled,
  selectsNamespace,
  selectsNode
} from "@ipamkit/models";
function defaultedPools(pools) {
  return pools.map(applyIPPoolDefaults).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
function enabledPools(all, version) {
  return all.filter((p) => version === void 0 ? isPoolEnabled(p, 4) || isPoolEnabled(p, 6) : isPoolEnabled(p, version));
}
function poolContaining(pools, ip) {
  return pools.find((p) => cidrContains(p.cidr, ip));
}
function maxPrefixLength(version, reserved) {
  const bits = bitsOf2(version);
  if (reserved === void 0) return bits;
  const count = reserved.startOfBlock + reserved.endOfBlock;
  const result = bits - Math.ceil(Math.log2(count + 1));
  if (count <= 0 || !Number.isInteger(count) || result <= 0) throw new ValidationError5("HostReservedAttr has wrong parameters");
  return result;
}
function determinePools(args) {
  const enabled = enabledPools(args.all, args.version);
  const byCidr = /* @__PURE__ */ new Map();
  for (const pool of enabled) {
    if (pool.blockSize <= args.maxPrefixLen) byCidr.set(canonicalCidr2(pool.cidr), pool);
  }
  if (byCidr.size === 0) throw new NoQualifiedPoolError("cannot find a qualified ippool");
  if (args.requested.length > 0) {
    return {
      enabled,
      selecting: args.requested.map((cidr) => {
        const pool = byCidr.get(canonicalCidr2(cidr));
        if (pool === void 0) throw new ValidationError5(`the given pool (${cidr}) does not exist, or is not enabled`);
        return pool;
      })
    };
  }
  const selecting = enabled.filter(
    (p) => p.assignmentMode === "Automatic" && selectsNode(p, args.node.labels) && selectsNamespace(p, args.namespace?.labels)
  );
  return { enabled, selecting };
}
function filterPoolsByUse(pools, use) {
  return pools.filter((p) => p.allowedUses.includes(use));
}

// src/client/assign-context.ts
var LOAD_BALANCER_HOST = "load-balancer";
async function readAssignContext(deps, reader, req) {
  const maxPrefixLen = maxPrefixLength(req.version, req.hostReserved);
  const hinted = deps.affineHints.get(hintKey(req.owner.type, req.owner.host, req.version)) ?? [];
  const isLoadBalancer = req.use === "LoadBalancer";
  const [config, reservationList, node, pools, affinities, handle, hintedBlocks] = await Promise.all([
    readIpamConfig(reader, deps.windowsHost),
    reader.ipReservations.list(),
    isLoadBalancer ? Promise.resolve({ name: LOAD_BALANCER_HOST }) : reader.nodes.get(req.owner.host),
    reader.ipPools.list(),
    reader.affinities.list({ host: req.owner.host, type: req.owner.type, ipVersion: req.version }),
    req.handleId === void 0 ? Promise.resolve(void 0) : orUndefined(reader.handles.get(req.handleId)),
    Promise.all(hinted.map((cidr) => orUndefined(reader.blocks.get(cidr))))
  ]);
  const all = defaultedPools(pools);
  const { selecting, enabled } = determinePools({
    all,
    version: req.version,
    requested: req.requestedPools,
    node,
    namespace: req.namespace,
    maxPrefixLen
  });
  if (selecting.length === 0) throw new ValidationError6(`no configured Calico pools for node ${req.owner.host}`);
  const allowed = filterPoolsByUse(selecting, req.use);
  if (allowed.length === 0) {
    throw new NoQualifiedPoolError2(`cannot find a qualified ippool, no pools match the required use (${req.use})`);
  }
  const kept = [];
  const releaseCandidates = [];
  for (const affinity of affinities) {
    if (poolContaining(allowed, affinity.cidr) !== void 0) {
      kept.push(affinity);
      continue;
    }
    if (selecting.some((p) => cidrContains2(p.cidr, affinity.cidr))) continue;
    const pool = poolContaining(enabled, affinity.cidr);
    if (pool === void 0 || selectsNode2(pool, node.labels)) continue;
    releaseCandidates.push(affinity.cidr);
  }
  const prefetched = /* @__PURE__ */ new Map();
  hinted.forEach((cidr, i) => prefetched.set(cidr, hintedBlocks[i]));
  return {
    config,
    reservations: createReservationFilter(reservationList),
    node,
    enabled,
    selecting,
    allowed,
    kept,
    releaseCandidates,
    handle,
    prefetched
  };
}

// src/client/block-handle-writes.ts
import {
  AlreadyExistsError as AlreadyExistsError4,
  isTransient as isTransient2,
  NotFoundError as NotFoundError7
} from "@ipamkit/models";

// src/client/transaction.ts
import { AlreadyExistsError as AlreadyExistsError3, ConflictError, NotFoundError as NotFoundError6 } from "@ipamkit/models";
async function inTransaction(deps, body) {
  const transact = deps.ds.transact;
  if (transact === void 0) throw new TypeError("datastore has no transact");
  const progress = { bodyDone: false };
  try {
    return await transact(async (tx) => {
      const result = await body(tx);
      progress.bodyDone = true;
      return result;
    });
  } catch (err) {
    if (progress.bodyDone && (err instanceof AlreadyExistsError3 || err instanceof NotFoundError6)) {
      throw new ConflictError("transaction", "a transaction precondition failed at commit", { cause: err });
    }
    throw err;
  }
}

// src/client/with-cas-retry.ts
import { isTransient } from "@ipamkit/models";
var DATASTORE_RETRIES = 100;
function defaultRetryable(err) {
  return isTransient(err) && !(err instanceof MaxRetriesError);
}
async function withCasRetry(fn, policy = {}) {
  const attempts = policy.attempts ?? DATASTORE_RETRIES;
  const isRetryable = policy.isRetryable ?? defaultRetryable;
  let last;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      last = err;
      policy.onRetry?.(err, attempt);
    }
  }
  throw new MaxRetriesError(policy.operation ?? "read-modify-write", attempts, { cause: last });
}

// src/client/block-handle-writes.ts
var retryHandleWrite = (err) => isTransient2(err) || err instanceof AlreadyExistsError4 || err instanceof NotFoundError7;
function countedHandle(stored, ref, changes) {
  let handle = stored;
  for (const change of changes) {
    handle = incrementHandleCount({
      handle,
      handleId: ref.handleId,
      blockCidr: change.next.cidr,
      num: change.count,
      maxAllocPerIPVersion: ref.maxAlloc
    });
  }
  if (handle === void 0) throw new TypeError("no allocation to count");
  return handle;
}
function bufferAllocations(tx, changes, handle) {
  const counted = handle === void 0 ? void 0 : countedHandle(handle.stored === void 0 ? void 0 : unversioned(handle.stored), handle.ref, changes);
  for (const change of changes) tx.write({ op: "update", kind: "block", value: asUpdate(change.original, change.next) });
  if (handle === void 0 || counted === void 0) return;
  if (handle.stored === void 0) tx.write({ op: "create", kind: "handle", value: counted });
  else tx.write({ op: "update", kind: "handle", value: { ...counted, revision: handle.stored.revision } });
}
async function incrementStoredHandle(deps, ref, change, cached) {
  await withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 && cached !== void 0 ? cached.value : await orUndefined(deps.ds.handles.get(ref.handleId));
      const next = countedHandle(stored === void 0 ? void 0 : unversioned(stored), ref, [change]);
      if (stored === void 0) await deps.ds.handles.create(next);
      else await deps.ds.handles.update({ ...next, revision: stored.revision });
    },
    { isRetryable: retryHandleWrite, operation: `increment handle ${ref.handleId}` }
  );
}
async function decrementStoredHandle(deps, handleId, byBlock, clear = false) {
  await withCasRetry(
    async () => {
      const stored = await orUndefined(deps.ds.handles.get(handleId));
      if (stored === void 0) return;
      const next = decrementAll(unversioned(stored), byBlock, clear);
      if (Object.keys(next.block).length === 0) await deps.ds.handles.delete(stored).catch(ignoreNotFound);
      else await deps.ds.handles.update({ ...next, revision: stored.revision });
    },
    { isRetryable: retryHandleWrite, operation: `decrement handle ${handleId}` }
  );
}
function ignoreNotFound(err) {
  if (!(err instanceof NotFoundError7)) throw err;
}
function decrementAll(handle, byBlock, clear = false) {
  let next = handle;
  for (const [blockCidr, num] of byBlock) {
    if (clear) {
      const block = { ...next.block };
      delete block[blockCidr];
      next = { ...next, block };
      continue;
    }
    try {
      next = decrementHandleCount({ handle: next, blockCidr, num });
    } catch (err) {
      if (!(err instanceof HandleCountError)) throw err;
    }
  }
  return next;
}
async function persistAllocation(deps, change, ref, cachedHandle) {
  if (deps.ds.transact !== void 0) {
    await inTransaction(deps, async (tx) => {
      const stored = ref === void 0 ? void 0 : await orUndefined(tx.handles.get(ref.handleId));
      bufferAllocations(tx, [change], ref === void 0 ? void 0 : { ref, stored });
    });
    return;
  }
  if (ref !== void 0) await incrementStoredHandle(deps, ref, change, cachedHandle);
  try {
    await deps.ds.blocks.update(asUpdate(change.original, change.next));
  } catch (err) {
    if (ref !== void 0) {
      await decrementStoredHandle(deps, ref.handleId, /* @__PURE__ */ new Map([[change.next.cidr, change.count]])).catch(() => void 0);
    }
    throw err;
  }
}
async function persistRelease(deps, change) {
  const blockWrite = change.deleteBlock ? { op: "delete", kind: "block", value: change.original } : { op: "update", kind: "block", value: asUpdate(change.original, change.next) };
  if (deps.ds.transact !== void 0) {
    await inTransaction(deps, async (tx) => {
      const ids = [...change.handleDeltas.keys()];
      const handles = await Promise.all(ids.map((id) => orUndefined(tx.handles.get(id))));
      tx.write(blockWrite);
      handles.forEach((stored, i) => {
        const id = ids[i];
        if (stored === void 0 || id === void 0) return;
        const next = decrementAll(unversioned(stored), /* @__PURE__ */ new Map([[change.next.cidr, change.handleDeltas.get(id) ?? 0]]), change.clearHandleEntries);
        if (Object.keys(next.block).length === 0) tx.write({ op: "delete", kind: "handle", value: stored });
        else tx.write({ op: "update", kind: "handle", value: { ...next, revision: stored.revision } });
      });
    });
    return;
  }
  if (change.deleteBlock) await deps.ds.blocks.delete(change.original);
  else await deps.ds.blocks.update(blockWrite.value);
  await Promise.all(
    [...change.handleDeltas].map(([id, n]) => (
      // Without a transaction a concurrent assign may have counted itself already: only decrement.
      decrementStoredHandle(deps, id, /* @__PURE__ */ new Map([[change.next.cidr, n]])).catch(() => void 0)
    ))
  );
}

// src/client/affine-fast-path.ts
async function planAffine(deps, reader, req, ctx, want) {
  const changes = [];
  let assigned = 0;
  let i = 0;
  const now = deps.clock.now();
  for (; i < ctx.kept.length && assigned < want.num; i += 1) {
    const affinity = ctx.kept[i];
    if (affinity === void 0) break;
    if (ctx.reservations.matchesWholeCidr(affinity.cidr)) continue;
    if (affinity.state !== "confirmed" && affinity.state !== "") break;
    if (!ctx.prefetched.has(affinity.cidr)) {
      const missing = ctx.kept.slice(i).map((a) => a.cidr).filter((c) => !ctx.prefetched.has(c));
      const blocks = await Promise.all(missing.map((c) => orUndefined(reader.blocks.get(c))));
      missing.forEach((c, j) => ctx.prefetched.set(c, blocks[j]));
    }
    const stored = ctx.prefetched.get(affinity.cidr);
    if (stored === void 0 || !hostOwnsBlock(stored, req.owner)) break;
    const { block } = collectedBlock(stored, ctx.config, now);
    if (numFree(block, ctx.reservations) < 1) continue;
    const result = autoAssignInBlock(block, {
      num: want.num - assigned,
      reservations: ctx.reservations,
      ...req.handleId === void 0 ? {} : { handleId: req.handleId },
      ...want.attrs === void 0 ? {} : { attrs: want.attrs },
      ...ctx.config.strictAffinity ? { requiredOwner: req.owner } : {}
    });
    if (result.ips.length === 0) continue;
    changes.push({ original: stored, next: result.block, count: result.ips.length, keptIndex: i, ipNets: result.ipNets });
    assigned += result.ips.length;
  }
  return { changes, nextKept: i };
}
async function runAffineFastPath(deps, req, want) {
  if (deps.ds.transact !== void 0) {
    return withCasRetry(
      () => inTransaction(deps, async (tx) => {
        const ctx2 = await readAssignContext(deps, tx, req);
        const plan2 = await planAffine(deps, tx, req, ctx2, want);
        if (plan2.changes.length > 0) {
          bufferAllocations(tx, plan2.changes, want.handle === void 0 ? void 0 : { ref: want.handle, stored: ctx2.handle });
        }
        return { ctx: ctx2, ips: plan2.changes.flatMap((c) => c.ipNets), nextKept: plan2.nextKept };
      }),
      { operation: "AutoAssign from affine blocks" }
    );
  }
  const ctx = await withCasRetry(() => readAssignContext(deps, deps.ds, req), { operation: "read AutoAssign context" });
  const plan = await planAffine(deps, deps.ds, req, ctx, want);
  const ips = [];
  for (const [j, change] of plan.changes.entries()) {
    try {
      await persistAllocation(deps, change, want.handle, j === 0 ? { value: ctx.handle } : void 0);
    } catch (err) {
      if (!(err instanceof ConflictError2)) throw err;
      return { ctx, ips, nextKept: change.keptIndex };
    }
    ips.push(...change.ipNets);
  }
  return { ctx, ips, nextKept: plan.nextKept };
}

// src/client/affine-slow-path.ts
import {
  BlockLimitError,
  ConflictError as ConflictError4,
  ValidationError as ValidationError8
} from "@ipamkit/models";

// src/client/assign-from-block.ts
import { ConflictError as ConflictError3 } from "@ipamkit/models";
async function assignFromBlock(deps, ctx, req, want, first, num, affinityCheck) {
  return withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 ? first : await deps.ds.blocks.get(first.cidr);
      const { block } = collectedBlock(stored, ctx.config, deps.clock.now());
      const result = autoAssignInBlock(block, {
        num,
        reservations: ctx.reservations,
        ...req.handleId === void 0 ? {} : { handleId: req.handleId },
        ...want.attrs === void 0 ? {} : { attrs: want.attrs },
        ...affinityCheck ? { requiredOwner: req.owner } : {}
      });
      if (result.ips.length === 0) return [];
      await persistAllocation(deps, { original: stored, next: result.block, count: result.ips.length }, want.handle);
      return result.ipNets;
    },
    { isRetryable: (err) => err instanceof ConflictError3, operation: `assign from block ${first.cidr}` }
  );
}

// src/client/block-generators.ts
import { bitsOf as bitsOf3, blockAt, blockCountOf, blocksOf, cidrContains as cidrContains3, ipVersionOfCidr, parseCidr as parseCidr2 } from "@ipamkit/models";
function fnv1Hash32(text) {
  let hash = 2166136261;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash, 16777619) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}
function splitMix64(seed) {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ z >> 30n) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ z >> 27n) * 0x94d049bb133111ebn);
    return z ^ z >> 31n;
  };
}
function uniformBelow(bound, next) {
  if (bound <= 1n) return 0n;
  const bits = (bound - 1n).toString(2).length;
  const words = Math.ceil(bits / 64);
  const mask = (1n << BigInt(bits)) - 1n;
  for (; ; ) {
    let value = 0n;
    for (let i = 0; i < words; i += 1) value = value << 64n | next();
    value &= mask;
    if (value < bound) return value;
  }
}
function blockSearchStart(poolCidr, blockPrefixLength, host, nowNs) {
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const seed = blockPrefixLength === bitsOf3(ipVersionOfCidr(poolCidr)) ? nowNs() : BigInt(fnv1Hash32(host));
  return uniformBelow(numBlocks, splitMix64(seed));
}
function inSearchOrder(poolCidr, blockPrefixLength, start, blockCidrs) {
  const pool = parseCidr2(poolCidr);
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const shift = BigInt(bitsOf3(pool.version) - blockPrefixLength);
  const rank = (cidr) => {
    const index = parseCidr2(cidr).network - pool.network >> shift;
    return (index - start + numBlocks) % numBlocks;
  };
  return blockCidrs.filter((c) => cidrContains3(poolCidr, c)).map((c) => ({ c, r: rank(c) })).sort((a, b) => a.r < b.r ? -1 : a.r > b.r ? 1 : 0).map(({ c }) => c);
}
function* randomBlockGenerator(poolCidr, blockPrefixLength, host, nowNs) {
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const start = blockSearchStart(poolCidr, blockPrefixLength, host, nowNs);
  for (let i = 0n; i < numBlocks; i += 1n) {
    yield blockAt(poolCidr, blockPrefixLength, (start + i) % numBlocks);
  }
}
function sequentialBlockGenerator(cidr, blockPrefixLength) {
  return blocksOf(cidr, blockPrefixLength);
}

// src/client/release-block-affinity.ts
import { BlockNotEmptyError, NotFoundError as NotFoundError8, ValidationError as ValidationError7 } from "@ipamkit/models";
function tolerateNotFound(err) {
  if (!(err instanceof NotFoundError8)) throw err;
}
async function releaseBlockAffinityOf(deps, config, owner, cidr, options) {
  if (owner.host === "") throw new ValidationError7("Hostname must be specified to release block affinity");
  const affinity = await deps.ds.affinities.get({ host: owner.host, type: owner.type, cidr });
  const stored = await deps.ds.blocks.get(cidr);
  const { block } = collectedBlock(stored, config, deps.clock.now());
  if (options.requiredSequenceNumber !== void 0 && stored.sequenceNumber !== options.requiredSequenceNumber) {
    throw new BlockChangedError(cidr);
  }
  if (block.affinity !== void 0 && !hostOwnsBlock(block, owner)) {
    await deps.ds.affinities.delete(affinity).catch(() => void 0);
    throw new BlockClaimConflictError(cidr, affinityString(block.affinity));
  }
  const empty = isEmpty(block);
  if (options.requireEmpty && !empty) throw new BlockNotEmptyError(cidr);
  const deleting = await deps.ds.affinities.update({ ...affinity, state: "pendingDeletion" });
  if (empty) await deps.ds.blocks.delete(stored).catch(tolerateNotFound);
  else await deps.ds.blocks.update(asUpdate(stored, clearAffinity(block)));
  await deps.ds.affinities.delete(deleting).catch(tolerateNotFound);
}

// src/client/find-usable-block.ts
var EMPTY_BLOCK_MIN_RECLAIM_AGE_MS = 6e4;
async function findUsableBlock(deps, ctx, req) {
  const stored = await deps.ds.blocks.list({ ipVersion: req.version });
  const now = deps.clock.now();
  const byCidr = new Map(stored.filter((b) => !b.deleted).map((b) => [b.cidr, b]));
  const candidates = [];
  for (const pool of ctx.allowed) {
    for (const cidr of randomBlockGenerator(pool.cidr, pool.blockSize, req.owner.host, () => unixNanos(deps.clock.now()))) {
      if (ctx.reservations.matchesWholeCidr(cidr)) continue;
      const existing = byCidr.get(cidr);
      if (existing === void 0) return cidr;
      const { block } = collectedBlock(existing, ctx.config, now);
      const free = numFree(block, ctx.reservations);
      if (free > 0 && hostOwnsBlock(existing, req.owner)) return cidr;
      if (free > 0 && isEmpty(block)) {
        candidates.push({ cidr, owner: existing.affinity, claimTime: existing.affinityClaimTime, sequenceNumber: existing.sequenceNumber });
      }
    }
  }
  for (const candidate of candidates) {
    if (candidate.owner === void 0) continue;
    const claimedAt = candidate.claimTime === void 0 ? Number.NaN : Date.parse(candidate.claimTime);
    if (!Number.isNaN(claimedAt) && now.getTime() - claimedAt < EMPTY_BLOCK_MIN_RECLAIM_AGE_MS) continue;
    try {
      await releaseBlockAffinityOf(deps, ctx.config, candidate.owner, candidate.cidr, {
        requireEmpty: true,
        requiredSequenceNumber: candidate.sequenceNumber
      });
      return candidate.cidr;
    } catch {
    }
  }
  throw new NoFreeBlocksError();
}

// src/client/affine-slow-path.ts
var isConflict = (err) => err instanceof ConflictError4;
var isClaimRace = (err) => err instanceof ConflictError4 || err instanceof BlockClaimConflictError || err instanceof StaleAffinityError || err instanceof BlockFilledError;
async function findOrClaimBlock(deps, ctx, req, state, minFree) {
  const now = () => deps.clock.now();
  for (let cidr = state.remaining.shift(); cidr !== void 0; cidr = state.remaining.shift()) {
    if (ctx.reservations.matchesWholeCidr(cidr)) continue;
    const key = { host: req.owner.host, type: req.owner.type, cidr };
    try {
      const block = await withCasRetry(
        async () => getBlockFromAffinity(deps, await deps.ds.affinities.get(key), req.hostReserved),
        { isRetryable: isConflict, operation: `validate affinity ${cidr}` }
      );
      if (numFree(collectedBlock(block, ctx.config, now()).block, ctx.reservations) >= minFree) return { block, newlyClaimed: false };
    } catch {
    }
  }
  if (!state.allowNewClaim) throw new BlockLimitError("cannot allocate new block due to per host block limit");
  if (!ctx.config.autoAllocateBlocks) throw new ValidationError8("failed to find or claim a block");
  return withCasRetry(
    async () => {
      const subnet = await findUsableBlock(deps, ctx, req);
      const block = await withCasRetry(
        async () => getBlockFromAffinity(deps, await getPendingAffinity(deps, req.owner, subnet), req.hostReserved),
        { isRetryable: isConflict, operation: `claim block ${subnet}` }
      );
      const free = numFree(collectedBlock(block, ctx.config, now()).block, ctx.reservations);
      if (free < minFree) throw new BlockFilledError(subnet, free, minFree);
      return { block, newlyClaimed: true };
    },
    { isRetryable: isClaimRace, operation: "find and claim a new block" }
  );
}
async function continueAffineLoop(deps, ctx, req, want, state) {
  while (state.ips.length < want.num) {
    if (state.owned >= state.cap) state.allowNewClaim = false;
    let found;
    try {
      found = await findOrClaimBlock(deps, ctx, req, state, 1);
    } catch (err) {
      if (err instanceof NoFreeBlocksError) {
        if (ctx.config.strictAffinity) state.msgs.add("No more free affine blocks and strict affinity enabled");
        return;
      }
      if (err instanceof BlockLimitError) {
        state.msgs.add(`Need to allocate an IPAM block but could not - limit of ${state.cap} blocks reached for this node`);
      }
      throw err;
    }
    if (found.newlyClaimed) state.owned += 1;
    try {
      const ips = await assignFromBlock(deps, ctx, req, want, found.block, want.num - state.ips.length, ctx.config.strictAffinity);
      state.ips.push(...ips);
      if (ips.length > 0) state.used.push(found.block.cidr);
    } catch (err) {
      if (err instanceof HandleMaxAllocReachedError) throw err;
      state.msgs.add("Failed to assign IPs in newly allocated block");
    }
  }
}

// src/client/borrow-addresses.ts
async function borrowAddresses(deps, ctx, req, want, state) {
  const stored = await deps.ds.blocks.list({ ipVersion: req.version });
  const byCidr = new Map(stored.filter((b) => !b.deleted).map((b) => [b.cidr, b]));
  const exhausted = [];
  for (const pool of ctx.allowed) {
    if (state.ips.length >= want.num) break;
    const start = blockSearchStart(pool.cidr, pool.blockSize, req.owner.host, () => unixNanos(deps.clock.now()));
    const order = inSearchOrder(pool.cidr, pool.blockSize, start, [...byCidr.keys()]);
    for (const cidr of order) {
      if (state.ips.length >= want.num) break;
      const block = byCidr.get(cidr);
      if (block === void 0 || ctx.reservations.matchesWholeCidr(cidr)) continue;
      try {
        const ips = await assignFromBlock(deps, ctx, req, want, block, want.num - state.ips.length, false);
        state.ips.push(...ips);
      } catch (err) {
        if (err instanceof HandleMaxAllocReachedError) throw err;
      }
    }
    if (state.ips.length < want.num) exhausted.push(pool.cidr);
  }
  if (exhausted.length > 0) state.msgs.add(`No IPs available in pools: [${exhausted.join(" ")}]`);
}

// src/client/handle-queries.ts
import { bitsOf as bitsOf4, ipVersionOfAddress } from "@ipamkit/models";
async function ipsByHandle(deps, handleId) {
  const id = sanitizeHandle(handleId) ?? handleId;
  const [handle, config] = await Promise.all([deps.ds.handles.get(id), readIpamConfig(deps.ds, deps.windowsHost)]);
  const cidrs = Object.keys(handle.block);
  const blocks = await Promise.all(cidrs.map((cidr) => orUndefined(deps.ds.blocks.get(cidr)).catch(() => void 0)));
  const now = deps.clock.now();
  return blocks.flatMap((stored) => stored === void 0 ? [] : ipsForHandle(collectedBlock(stored, config, now).block, id));
}
async function existingHandleAddresses(deps, handleId, num, version) {
  const all = await ipsByHandle(deps, handleId);
  const family = all.filter((ip) => ipVersionOfAddress(ip) === version);
  if (family.length < num) throw new InsufficientIPsByHandleError(handleId, family.length, num);
  return family.slice(0, num).map((ip) => `${ip}/${bitsOf4(version)}`);
}

// src/client/partial-results.ts
var families = /* @__PURE__ */ new WeakMap();
var autoAssigns = /* @__PURE__ */ new WeakMap();
var releases = /* @__PURE__ */ new WeakMap();
function attach(map, err, value) {
  if (typeof err === "object" && err !== null && value !== void 0) map.set(err, value);
  return err;
}
function read(map, err) {
  return typeof err === "object" && err !== null ? map.get(err) : void 0;
}
var withFamilyPartial = (err, value) => attach(families, err, value);
var familyPartialOf = (err) => read(families, err);
var withAutoAssignPartial = (err, value) => attach(autoAssigns, err, value);
var withReleasePartial = (err, value) => attach(releases, err, value);
function partialAutoAssignResult(err) {
  return read(autoAssigns, err);
}
function partialReleaseResult(err) {
  return read(releases, err);
}

// src/client/auto-assign.ts
function decideHostname(host) {
  return host !== "" ? host : osHostname().trim().toLowerCase();
}
function blockCap(configMax, requestMax) {
  let cap;
  if (configMax > 0 && requestMax > 0 && requestMax > configMax) cap = configMax;
  else if (requestMax === 0) cap = configMax;
  else cap = requestMax;
  return cap === 0 ? DEFAULT_MAX_BLOCKS_PER_HOST : cap;
}
var MAX_HINTED_BLOCKS = 8;
async function releaseUnselectedAffinities(deps, ctx, req) {
  for (const cidr of ctx.releaseCandidates) {
    try {
      await withCasRetry(() => releaseBlockAffinityOf(deps, ctx.config, req.owner, cidr, { requireEmpty: true }), {
        isRetryable: (err) => err instanceof ConflictError5
      });
    } catch (err) {
      if (!(err instanceof BlockClaimConflictError || err instanceof BlockNotEmptyError2 || err instanceof NotFoundError9)) throw err;
    }
  }
}
async function assignFamilyOnce(deps, args, host, fam) {
  const req = {
    version: fam.version,
    owner: { type: args.intendedUse === "LoadBalancer" ? "virtual" : "host", host },
    use: args.intendedUse,
    requestedPools: fam.pools,
    namespace: args.namespace,
    hostReserved: fam.hostReserved,
    handleId: args.handleId
  };
  const want = {
    num: fam.num,
    attrs: args.attrs,
    handle: args.handleId === void 0 ? void 0 : { handleId: args.handleId, maxAlloc: args.maxAllocToHandlePerIPVersion ?? 0 }
  };
  const result = (ips, msgs) => ({
    ips,
    ipVersion: fam.version,
    numRequested: fam.num,
    msgs: [...new Set(msgs)],
    ...fam.hostReserved === void 0 ? {} : { hostReservedAttr: fam.hostReserved }
  });
  const reuseExisting = async () => result(await existingHandleAddresses(deps, args.handleId ?? "", fam.num, fam.version), []);
  let state;
  try {
    const fast = await runAffineFastPath(deps, req, want);
    const { ctx } = fast;
    state = {
      remaining: ctx.kept.slice(fast.nextKept).map((a) => a.cidr),
      owned: ctx.kept.length,
      cap: blockCap(ctx.config.maxBlocksPerHost, args.maxBlocksPerHost ?? 0),
      allowNewClaim: true,
      ips: [...fast.ips],
      msgs: /* @__PURE__ */ new Set(),
      used: ctx.kept.slice(0, Math.max(fast.nextKept, 1)).map((a) => a.cidr)
    };
    if (ctx.releaseCandidates.length > 0) await releaseUnselectedAffinities(deps, ctx, req);
    if (state.ips.length < fam.num) await continueAffineLoop(deps, ctx, req, want, state);
    if (state.ips.length < fam.num && !ctx.config.strictAffinity) await borrowAddresses(deps, ctx, req, want, state);
    deps.affineHints.set(hintKey(req.owner.type, host, fam.version), [...new Set(state.used)].slice(0, MAX_HINTED_BLOCKS));
    return result(state.ips, state.msgs);
  } catch (err) {
    if (err instanceof HandleMaxAllocReachedError && args.handleId !== void 0) return reuseExisting();
    throw withFamilyPartial(err, state === void 0 ? void 0 : result(state.ips, state.msgs));
  }
}
async function assignFamily(deps, args, host, fam) {
  for (const pool of fam.pools) {
    if (ipVersionOfCidr2(pool) !== fam.version) {
      throw new ValidationError9(
        fam.version === 4 ? "provided IPv4 IPPools list contains one or more IPv6 IPPools" : "provided IPv6 IPPools list contains one or more IPv4 IPPools"
      );
    }
  }
  return withCasRetry(() => assignFamilyOnce(deps, args, host, fam), {
    isRetryable: (err) => err instanceof InsufficientIPsByHandleError,
    operation: `AutoAssign IPv${fam.version}`
  });
}
function checkCount(name, value) {
  const n = value ?? 0;
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError9(`${name} must be a non-negative integer, got ${n}`);
  return n;
}
async function autoAssign(deps, args) {
  const num4 = checkCount("num4", args.num4);
  const num6 = checkCount("num6", args.num6);
  checkCount("maxBlocksPerHost", args.maxBlocksPerHost);
  checkCount("maxAllocToHandlePerIPVersion", args.maxAllocToHandlePerIPVersion);
  if ((num4 > 0 || num6 > 0) && (args.intendedUse ?? "") === "") {
    throw new UseRequiredError("must specify the intended use when assigning an IP");
  }
  const host = decideHostname(args.hostname);
  const out = {};
  if (num4 > 0) {
    try {
      out.ipv4 = await assignFamily(deps, args, host, { version: 4, num: num4, pools: args.ipv4Pools ?? [], hostReserved: args.hostReservedAttrIPv4s });
    } catch (err) {
      throw withAutoAssignPartial(err, { ipv4: familyPartialOf(err) });
    }
  }
  if (num6 > 0) {
    try {
      out.ipv6 = await assignFamily(deps, args, host, { version: 6, num: num6, pools: args.ipv6Pools ?? [], hostReserved: args.hostReservedAttrIPv6s });
    } catch (err) {
      throw withAutoAssignPartial(err, { ...out, ipv6: familyPartialOf(err) });
    }
  }
  return out;
}

// src/client/affinity-api.ts
var isConflict2 = (err) => err instanceof ConflictError6;
var ignorable = (err) => err instanceof BlockClaimConflictError || err instanceof NotFoundError10;
function ownerOf2(affinity) {
  return { type: affinity.affinityType, host: decideHostname(affinity.host) };
}
async function poolForRange(deps, cidr) {
  let range;
  try {
    range = canonicalCidr3(cidr);
  } catch (err) {
    throw new ValidationError10(`invalid CIDR ${JSON.stringify(cidr)}`, { cause: err });
  }
  const pool = poolContaining(enabledPools(defaultedPools(await deps.ds.ipPools.list())), range.split("/")[0] ?? range);
  if (pool === void 0) throw new ValidationError10(`The requested CIDR (${cidr}) is not within any configured pools.`);
  if (parseCidr3(range).prefixLength > pool.blockSize) throw new InvalidSizeError(cidr);
  return { pool, range };
}
async function claimAffinity(deps, cidr, affinity) {
  const { pool, range } = await poolForRange(deps, cidr);
  const owner = ownerOf2(affinity);
  const claimed = [];
  const failed = [];
  for (const blockCidr of sequentialBlockGenerator(range, pool.blockSize)) {
    try {
      await withCasRetry(async () => claimAffineBlock(deps, await getPendingAffinity(deps, owner, blockCidr), void 0), {
        isRetryable: isConflict2,
        operation: `claim ${blockCidr}`
      });
      claimed.push(blockCidr);
    } catch (err) {
      if (!(err instanceof BlockClaimConflictError)) throw err;
      failed.push(blockCidr);
    }
  }
  return { claimed, failed };
}
async function releaseAffinity(deps, cidr, host, mustBeEmpty) {
  const { pool, range } = await poolForRange(deps, cidr);
  const owner = { type: "host", host: decideHostname(host) };
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  for (const blockCidr of sequentialBlockGenerator(range, pool.blockSize)) {
    await releaseIgnoring(deps, config, owner, blockCidr, mustBeEmpty);
  }
}
async function releaseIgnoring(deps, config, owner, cidr, requireEmpty) {
  try {
    await withCasRetry(() => releaseBlockAffinityOf(deps, config, owner, cidr, { requireEmpty }), {
      isRetryable: isConflict2,
      operation: `release affinity ${cidr}`
    });
  } catch (err) {
    if (!ignorable(err)) throw err;
  }
}
async function releaseHostAffinities(deps, affinity, mustBeEmpty) {
  const owner = ownerOf2(affinity);
  const [config, affinities] = await Promise.all([
    readIpamConfig(deps.ds, deps.windowsHost),
    deps.ds.affinities.list({ host: owner.host, type: owner.type })
  ]);
  let last;
  for (const version of [4, 6]) {
    for (const a of affinities.filter((x) => x.cidr.includes(":") === (version === 6))) {
      try {
        await releaseIgnoring(deps, config, owner, a.cidr, mustBeEmpty);
      } catch (err) {
        last = err instanceof Error ? err : new Error(String(err));
      }
    }
  }
  if (last !== void 0) throw last;
}
async function releasePoolAffinities(deps, poolCidr) {
  const pool = canonicalCidr3(poolCidr);
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  for (let round = 0; round < DATASTORE_RETRIES; round += 1) {
    const owners = /* @__PURE__ */ new Map();
    for (const a of await deps.ds.affinities.list()) {
      if (cidrContains4(pool, a.cidr)) owners.set(a.cidr, { type: a.type, host: a.host });
    }
    if (owners.size === 0) return;
    let again = false;
    for (const [cidr, owner] of owners) {
      try {
        await withCasRetry(() => releaseBlockAffinityOf(deps, config, owner, cidr, { requireEmpty: false }), { isRetryable: isConflict2 });
      } catch (err) {
        if (err instanceof BlockClaimConflictError) again = true;
        else if (!(err instanceof NotFoundError10)) throw err;
      }
    }
    if (!again) return;
  }
  throw new MaxRetriesError(`release affinities of pool ${pool}`, DATASTORE_RETRIES);
}
async function releaseBlockAffinity(deps, block, mustBeEmpty) {
  if (block.affinity === void 0) return;
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  try {
    await releaseBlockAffinityOf(deps, config, block.affinity, block.cidr, { requireEmpty: mustBeEmpty });
  } catch (err) {
    if (!ignorable(err)) throw err;
  }
}
async function removeIPAMHost(deps, affinity) {
  await releaseHostAffinities(deps, affinity, false);
}

// src/client/assign-ip.ts
import { blockCidrFor as blockCidrFor2, canonicalAddress, ConflictError as ConflictError7, ipVersionOfAddress as ipVersionOfAddress2, ValidationError as ValidationError11 } from "@ipamkit/models";
async function assignIP(deps, args) {
  let ip;
  try {
    ip = canonicalAddress(args.ip);
  } catch (err) {
    throw new ValidationError11(`invalid IP address ${JSON.stringify(args.ip)}`, { cause: err });
  }
  const host = decideHostname(args.hostname);
  const owner = { type: args.intendedUse === "LoadBalancer" ? "virtual" : "host", host };
  const version = ipVersionOfAddress2(ip);
  const [pools, config] = await Promise.all([deps.ds.ipPools.list(), readIpamConfig(deps.ds, deps.windowsHost)]);
  const pool = poolContaining(enabledPools(defaultedPools(pools), version), ip);
  if (pool === void 0) throw new ValidationError11("The provided IP address is not in a configured pool\n");
  if (args.intendedUse !== void 0 && !pool.allowedUses.includes(args.intendedUse)) {
    throw new ValidationError11(
      `IP address ${ip} is in IP pool "${pool.name}", which is not allowed for use "${args.intendedUse}" (allowedUses: ${pool.allowedUses.join(", ")})`
    );
  }
  const blockCidr = blockCidrFor2(ip, pool.blockSize);
  const maxAlloc = args.maxAllocToHandlePerIPVersion ?? 0;
  const ref = args.handleId === void 0 ? void 0 : { handleId: args.handleId, maxAlloc };
  try {
    await withCasRetry(
      async () => {
        let stored = await orUndefined(deps.ds.blocks.get(blockCidr));
        if (stored === void 0) {
          stored = await claimAffineBlock(deps, await getPendingAffinity(deps, owner, blockCidr), args.hostReservedAttr);
        }
        const { block } = collectedBlock(stored, config, deps.clock.now());
        let next;
        try {
          next = assignInBlock(block, {
            ip,
            ...args.handleId === void 0 ? {} : { handleId: args.handleId },
            ...args.attrs === void 0 ? {} : { attrs: args.attrs },
            ...config.strictAffinity ? { requiredOwner: owner } : {}
          });
        } catch (err) {
          if (err instanceof AddressInUseError && args.handleId !== void 0 && maxAlloc > 0 && err.existingHandleId === args.handleId && !err.inCooldown) return;
          throw err;
        }
        await persistAllocation(deps, { original: stored, next: next.block, count: 1 }, ref);
      },
      {
        isRetryable: (err) => err instanceof ConflictError7 || err instanceof BlockClaimConflictError,
        operation: `AssignIP ${ip}`
      }
    );
  } catch (err) {
    if (!(err instanceof HandleMaxAllocReachedError) || args.handleId === void 0) throw err;
    const held = await ipsByHandle(deps, args.handleId);
    if (held.includes(ip)) return;
    throw new ValidationError11(
      `handle ${args.handleId} already has IP(s) allocated, cannot assign additional IP ${ip} (maxAllocPerIPVersion=${maxAlloc})`,
      { cause: err }
    );
  }
}

// src/client/ensure-block.ts
import { ipVersionOfCidr as ipVersionOfCidr3, ValidationError as ValidationError12 } from "@ipamkit/models";
async function ensureFamily(deps, host, version, pools, hostReserved) {
  for (const pool of pools) {
    if (ipVersionOfCidr3(pool) !== version) {
      throw new ValidationError12(`provided IPv${version} IPPools list contains one or more IPv${version === 4 ? 6 : 4} IPPools`);
    }
  }
  const req = {
    version,
    owner: { type: "host", host },
    use: "Workload",
    requestedPools: pools,
    namespace: void 0,
    hostReserved,
    handleId: void 0
  };
  const ctx = await withCasRetry(() => readAssignContext(deps, deps.ds, req), { operation: "read EnsureBlock context" });
  const state = { remaining: ctx.kept.map((a) => a.cidr), allowNewClaim: true };
  const { block } = await findOrClaimBlock(deps, ctx, req, state, 0);
  return block.cidr;
}
async function ensureBlock(deps, args) {
  const host = decideHostname(args.hostname);
  const out = {};
  if (args.hostReservedAttrIPv4s !== void 0) {
    out.ipv4 = await ensureFamily(deps, host, 4, args.ipv4Pools ?? [], args.hostReservedAttrIPv4s);
  }
  if (args.hostReservedAttrIPv6s !== void 0) {
    out.ipv6 = await ensureFamily(deps, host, 6, args.ipv6Pools ?? [], args.hostReservedAttrIPv6s);
  }
  return out;
}

// src/client/get-utilization.ts
async function getUtilization(deps, args = {}) {
  const [pools, reservations, blocks] = await Promise.all([
    deps.ds.ipPools.list(),
    deps.ds.ipReservations.list(),
    deps.ds.blocks.list()
  ]);
  return computeUtilization({
    pools: [...pools].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    blocks: blocks.filter((b) => !b.deleted),
    reservations,
    ...args.pools === void 0 ? {} : { poolsFilter: args.pools }
  });
}

// src/client/owner-attributes.ts
import { blockCidrFor as blockCidrFor3, canonicalAddress as canonicalAddress2, ConflictError as ConflictError8, NotFoundError as NotFoundError11, ValidationError as ValidationError13 } from "@ipamkit/models";
function canonical(ip) {
  try {
    return canonicalAddress2(ip);
  } catch (err) {
    throw new ValidationError13(`invalid IP address ${JSON.stringify(ip)}`, { cause: err });
  }
}
async function blockCidrOf(deps, ip, notInPool) {
  const pool = poolContaining(enabledPools(defaultedPools(await deps.ds.ipPools.list())), ip);
  if (pool === void 0) throw notInPool();
  return blockCidrFor3(ip, pool.blockSize);
}
async function getAssignmentAttributes(deps, rawIp) {
  const ip = canonical(rawIp);
  const [cidr, config] = await Promise.all([
    blockCidrOf(deps, ip, () => new NotFoundError11(ip, `No valid IPPool for ${ip}`)),
    readIpamConfig(deps.ds, deps.windowsHost)
  ]);
  const stored = await deps.ds.blocks.get(cidr);
  const attribute = attributesFor(collectedBlock(stored, config, deps.clock.now()).block, ip);
  return {
    ...attribute.handleId === void 0 ? {} : { handleId: attribute.handleId },
    activeOwnerAttrs: attribute.activeOwnerAttrs ?? {},
    alternateOwnerAttrs: attribute.alternateOwnerAttrs ?? {}
  };
}
async function setOwnerAttributes(deps, rawIp, handleId, updates, preconditions) {
  validateOwnerAttributeUpdates(updates, preconditions);
  const ip = canonical(rawIp);
  const [cidr, config] = await Promise.all([
    blockCidrOf(deps, ip, () => new ValidationError13(`the provided IP address ${ip} is not in a configured pool`)),
    readIpamConfig(deps.ds, deps.windowsHost)
  ]);
  await withCasRetry(
    async () => {
      const stored = await deps.ds.blocks.get(cidr);
      const { block } = collectedBlock(stored, config, deps.clock.now());
      const next = setOwnerAttributesInBlock(block, {
        ip,
        handleId,
        updates,
        ...preconditions === void 0 ? {} : { preconditions }
      }).block;
      await deps.ds.blocks.update(asUpdate(stored, next));
    },
    { isRetryable: (err) => err instanceof ConflictError8, operation: `set owner attributes of ${ip}` }
  );
}
async function garbageCollectColdIPs(deps, blockCidr) {
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  await withCasRetry(
    async () => {
      const stored = await deps.ds.blocks.get(blockCidr);
      const { block, changed } = collectedBlock(stored, config, deps.clock.now());
      if (changed) await deps.ds.blocks.update(asUpdate(stored, block));
    },
    { isRetryable: (err) => err instanceof ConflictError8, operation: `collect cold IPs in ${blockCidr}` }
  );
}

// src/client/release-by-handle.ts
import { ConflictError as ConflictError9 } from "@ipamkit/models";

// src/client/ensure-consistent-affinity.ts
import { selectsNode as selectsNode3 } from "@ipamkit/models";
async function ensureConsistentAffinity(deps, config, block) {
  const owner = block.affinity;
  if (owner?.type !== "host" || owner.host === "") return;
  try {
    const [node, pools] = await Promise.all([orUndefined(deps.ds.nodes.get(owner.host)), deps.ds.ipPools.list()]);
    if (node === void 0) return;
    const pool = poolContaining(enabledPools(defaultedPools(pools)), block.cidr);
    if (pool === void 0 || selectsNode3(pool, node.labels)) return;
    await releaseBlockAffinityOf(deps, config, owner, block.cidr, { requireEmpty: true });
  } catch {
  }
}

// src/client/release-by-handle.ts
async function releaseHandleFromBlock(deps, config, handleId, cidr) {
  const block = await withCasRetry(
    async () => {
      const stored = await orUndefined(deps.ds.blocks.get(cidr));
      if (stored === void 0) return void 0;
      const now = deps.clock.now();
      const result = releaseHandleInBlock(collectedBlock(stored, config, now).block, {
        handleId,
        cooldownSeconds: config.ipCooldownSeconds,
        now
      });
      if (result.count === 0) return void 0;
      const deleteBlock = isEmpty(result.block) && result.block.affinity === void 0;
      await persistRelease(deps, { original: stored, next: result.block, deleteBlock, handleDeltas: /* @__PURE__ */ new Map([[handleId, result.count]]), clearHandleEntries: true });
      return result.block;
    },
    { isRetryable: (err) => err instanceof ConflictError9, operation: `release handle ${handleId} in ${cidr}` }
  );
  if (block !== void 0) await ensureConsistentAffinity(deps, config, block);
}
async function releaseByHandle(deps, handleId) {
  const id = sanitizeHandle(handleId) ?? handleId;
  const [handle, config] = await Promise.all([deps.ds.handles.get(id), readIpamConfig(deps.ds, deps.windowsHost)]);
  const results = await Promise.allSettled(Object.keys(handle.block).map((cidr) => releaseHandleFromBlock(deps, config, id, cidr)));
  const failed = results.find((r) => r.status === "rejected");
  if (failed !== void 0) throw failed.reason;
}

// src/client/release-ips.ts
import {
  blockCidrFor as blockCidrFor4,
  canonicalAddress as canonicalAddress3,
  cidrContains as cidrContains5,
  ConflictError as ConflictError10,
  ipVersionOfAddress as ipVersionOfAddress3,
  ValidationError as ValidationError14
} from "@ipamkit/models";
var RELEASE_CONCURRENCY = 4;
async function releaseGroup(deps, config, cidr, group) {
  const { options, originals } = group;
  try {
    const outcome = await withCasRetry(
      async () => {
        const stored = await orUndefined(deps.ds.blocks.get(cidr));
        if (stored === void 0) return { unallocated: options.map((o) => o.address), block: void 0 };
        const now = deps.clock.now();
        const { block } = collectedBlock(stored, config, now);
        const result = releaseInBlock(block, { releases: options, cooldownSeconds: config.ipCooldownSeconds, now });
        if (result.released.length === 0) return { unallocated: result.unallocated, block: void 0 };
        const deleteBlock = isEmpty(result.block) && result.block.affinity === void 0;
        await persistRelease(deps, { original: stored, next: result.block, deleteBlock, handleDeltas: result.handleDeltas });
        return { unallocated: result.unallocated, block: result.block };
      },
      { isRetryable: (err) => err instanceof ConflictError10, operation: `release addresses in ${cidr}` }
    );
    if (outcome.block !== void 0) await ensureConsistentAffinity(deps, config, outcome.block);
    return { options: originals, unallocated: outcome.unallocated };
  } catch (error) {
    return { options: originals, unallocated: [], error };
  }
}
async function inBatches(items, limit, run) {
  const out = [];
  for (let i = 0; i < items.length; i += limit) out.push(...await Promise.all(items.slice(i, i + limit).map(run)));
  return out;
}
async function releaseIPs(deps, opts) {
  const canonical2 = opts.map((o) => {
    if (o.address === "") throw new ValidationError14("release options must name an address");
    try {
      return canonicalAddress3(o.address);
    } catch (err) {
      throw new ValidationError14(`invalid IP address ${JSON.stringify(o.address)}`, { cause: err });
    }
  });
  const [pools, config] = await Promise.all([deps.ds.ipPools.list(), readIpamConfig(deps.ds, deps.windowsHost)]);
  const all = defaultedPools(pools);
  const familyBlocks = /* @__PURE__ */ new Map();
  const groups = /* @__PURE__ */ new Map();
  const unallocated = [];
  for (const [i, option] of opts.entries()) {
    const ip = canonical2[i] ?? option.address;
    const pool = poolContaining(all, ip);
    let cidr;
    if (pool !== void 0) {
      cidr = blockCidrFor4(ip, pool.blockSize);
    } else {
      const version = ipVersionOfAddress3(ip);
      let listing = familyBlocks.get(version);
      if (listing === void 0) {
        listing = deps.ds.blocks.list({ ipVersion: version });
        familyBlocks.set(version, listing);
      }
      cidr = (await listing).find((b) => cidrContains5(b.cidr, ip))?.cidr;
    }
    if (cidr === void 0) {
      unallocated.push(option.address);
      continue;
    }
    const group = groups.get(cidr) ?? { options: [], originals: [] };
    group.options.push({ ...option, address: ip });
    group.originals.push(option);
    groups.set(cidr, group);
  }
  const outcomes = await inBatches([...groups], RELEASE_CONCURRENCY, ([cidr, group]) => releaseGroup(deps, config, cidr, group));
  const released = [];
  let firstError;
  for (const outcome of outcomes) {
    unallocated.push(...outcome.unallocated);
    if (outcome.error === void 0) released.push(...outcome.options);
    else firstError ??= outcome.error;
  }
  if (firstError !== void 0) throw withReleasePartial(firstError, { unallocated, released });
  return { unallocated, released };
}

// src/client/upgrade-host.ts
import { isTransient as isTransient3 } from "@ipamkit/models";
var FIRST_DELAY_MS = 100;
var MAX_DELAY_MS = 5e3;
async function upgradeHost(deps, nodeName, sleep = (ms) => new Promise((r) => setTimeout(r, ms))) {
  let delay = FIRST_DELAY_MS;
  let last;
  for (let attempt = 0; attempt < DATASTORE_RETRIES; attempt += 1) {
    try {
      await deps.ds.upgradeHost(nodeName);
      return;
    } catch (err) {
      if (!isTransient3(err)) throw err;
      last = err;
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
  throw new MaxRetriesError(`upgrade host ${nodeName}`, DATASTORE_RETRIES, { cause: last });
}

// src/client/create-ipam-client.ts
var systemClock = { now: () => /* @__PURE__ */ new Date() };
function createIpamClient(opts) {
  const deps = {
    ds: opts.datastore,
    clock: opts.clock ?? systemClock,
    windowsHost: opts.windowsHost ?? platform() === "win32",
    affineHints: /* @__PURE__ */ new Map()
  };
  return {
    autoAssign: (args) => autoAssign(deps, args),
    assignIP: (args) => assignIP(deps, args),
    releaseIPs: (options) => releaseIPs(deps, options),
    releaseByHandle: (handleId) => releaseByHandle(deps, handleId),
    ipsByHandle: (handleId) => ipsByHandle(deps, handleId),
    getAssignmentAttributes: (ip) => getAssignmentAttributes(deps, ip),
    claimAffinity: (cidr, affinity) => claimAffinity(deps, cidr, affinity),
    releaseAffinity: (cidr, host, mustBeEmpty) => releaseAffinity(deps, cidr, host, mustBeEmpty),
    releaseHostAffinities: (affinity, mustBeEmpty) => releaseHostAffinities(deps, affinity, mustBeEmpty),
    releasePoolAffinities: (poolCidr) => releasePoolAffinities(deps, poolCidr),
    releaseBlockAffinity: (block, mustBeEmpty) => releaseBlockAffinity(deps, block, mustBeEmpty),
    removeIPAMHost: (affinity) => removeIPAMHost(deps, affinity),
    getIPAMConfig: () => readIpamConfig(deps.ds, deps.windowsHost),
    setIPAMConfig: (cfg) => writeIpamConfig(deps.ds, cfg, deps.windowsHost),
    getUtilization: (args) => getUtilization(deps, args),
    ensureBlock: (args) => ensureBlock(deps, args),
    upgradeHost: (nodeName) => upgradeHost(deps, nodeName),
    garbageCollectColdIPs: (blockCidr) => garbageCollectColdIPs(deps, blockCidr),
    setOwnerAttributes: (ip, handleId, updates, preconditions) => setOwnerAttributes(deps, ip, handleId, updates, preconditions)
  };
}

// src/client/counting-datastore.ts
function wrapStore(store, track) {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || prop === "watch" || prop === "write") {
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (...args) => track(() => Promise.resolve(value.apply(target, args)));
    }
  });
}
var WaveCounter = class {
  waves = 0;
  calls = 0;
  inFlight = 0;
  track = async (run) => {
    if (this.inFlight === 0) this.waves += 1;
    this.inFlight += 1;
    this.calls += 1;
    try {
      return await run();
    } finally {
      this.inFlight -= 1;
    }
  };
};
function countingDatastore(inner, options = {}) {
  const kind = options.asKind ?? inner.kind;
  let outer = new WaveCounter();
  let transactions = 0;
  let txCalls = 0;
  let txWaves = 0;
  const track = (run) => outer.track(run);
  const wrapTx = (tx, counter) => {
    const inTx = async (run) => {
      txCalls += 1;
      return counter === void 0 ? run() : counter.track(run);
    };
    return {
      blocks: wrapStore(tx.blocks, inTx),
      affinities: wrapStore(tx.affinities, inTx),
      handles: wrapStore(tx.handles, inTx),
      ipamConfig: wrapStore(tx.ipamConfig, inTx),
      ipPools: wrapStore(tx.ipPools, inTx),
      ipReservations: wrapStore(tx.ipReservations, inTx),
      nodes: wrapStore(tx.nodes, inTx),
      write: (w) => tx.write(w)
    };
  };
  const innerTransact = inner.transact;
  const transact = innerTransact === void 0 || options.withoutTransact === true ? void 0 : async (body) => {
    transactions += 1;
    if (kind !== "etcd") {
      return await track(() => innerTransact((tx) => body(wrapTx(tx, void 0))));
    }
    const counter = new WaveCounter();
    try {
      return await innerTransact((tx) => body(wrapTx(tx, counter)));
    } finally {
      txWaves += counter.waves + 1;
      txCalls += 1;
    }
  };
  const datastore = {
    kind,
    ipPools: wrapStore(inner.ipPools, track),
    ipReservations: wrapStore(inner.ipReservations, track),
    nodes: wrapStore(inner.nodes, track),
    namespaces: wrapStore(inner.namespaces, track),
    blocks: wrapStore(inner.blocks, track),
    affinities: wrapStore(inner.affinities, track),
    handles: wrapStore(inner.handles, track),
    ipamConfig: wrapStore(inner.ipamConfig, track),
    ...transact === void 0 ? {} : { transact },
    upgradeHost: async (node) => {
      await track(() => inner.upgradeHost(node));
    },
    close: () => inner.close()
  };
  return {
    datastore,
    counts: () => ({ waves: outer.waves + txWaves, calls: outer.calls + txCalls, transactions }),
    reset: () => {
      outer = new WaveCounter();
      transactions = 0;
      txCalls = 0;
      txWaves = 0;
    }
  };
}

// src/client/kubevirt.ts
import { vmHandleId } from "@ipamkit/models";
var VM_OWNER_SWAP_RETRIES = 5;
function createVMHandleId(networkName, namespace, vmName) {
  return vmHandleId(networkName, namespace, vmName);
}
function ownerOf3(attrs) {
  return { namespace: attrs.namespace ?? "", name: attrs.pod ?? "" };
}
function isEmptyOwner(attrs) {
  return Object.keys(attrs).length === 0;
}
async function swapOne(ipam, ip, handleId, target) {
  for (let attempt = 0; attempt < VM_OWNER_SWAP_RETRIES; attempt += 1) {
    const current = await ipam.getAssignmentAttributes(ip);
    if (current.handleId !== handleId) throw new AlternateOwnerMismatchError(`IP ${ip} belongs to handle ${current.handleId ?? "(none)"}, not ${handleId}`);
    if (ownerMatches(target, current.activeOwnerAttrs)) return;
    if (isEmptyOwner(current.alternateOwnerAttrs)) throw new AlternateOwnerEmptyError(`IP ${ip} has no alternate owner to promote`);
    if (!ownerMatches(target, current.alternateOwnerAttrs)) {
      throw new AlternateOwnerMismatchError(`the alternate owner of ${ip} is not pod ${target.namespace}/${target.name}`);
    }
    const updates = { activeOwnerAttrs: current.alternateOwnerAttrs };
    const pre = { expectedAlternateOwner: target };
    if (isEmptyOwner(current.activeOwnerAttrs)) {
      updates.clearAlternateOwner = true;
      pre.verifyActiveOwnerEmpty = true;
    } else {
      updates.alternateOwnerAttrs = current.activeOwnerAttrs;
      pre.expectedActiveOwner = ownerOf3(current.activeOwnerAttrs);
    }
    try {
      await ipam.setOwnerAttributes(ip, handleId, updates, pre);
      return;
    } catch (err) {
      if (!(err instanceof OwnerPreconditionError)) throw err;
    }
  }
  throw new Error(`max retries (${VM_OWNER_SWAP_RETRIES}) exceeded for IP ${ip}`);
}
async function ensureActiveVMOwnerAttrs(ipam, args) {
  const handleId = createVMHandleId(args.networkName, args.namespace, args.vmiName);
  const ips = await ipam.ipsByHandle(handleId);
  if (ips.length === 0) throw new Error(`no IPs allocated to VM handle ${handleId}`);
  let last;
  for (const ip of ips) {
    try {
      await swapOne(ipam, ip, handleId, args.targetPod);
    } catch (err) {
      if (err instanceof AlternateOwnerEmptyError || err instanceof AlternateOwnerMismatchError) throw err;
      last = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (last !== void 0) throw last;
}
export {
  AddressInUseError,
  AddressNotInBlockError,
  AffinityMismatchError,
  AlternateOwnerEmptyError,
  AlternateOwnerMismatchError,
  BlockChangedError,
  BlockClaimConflictError,
  BlockFilledError,
  DATASTORE_RETRIES,
  EMPTY_BLOCK_MIN_RECLAIM_AGE_MS,
  HandleCountError,
  HandleMaxAllocReachedError,
  InsufficientIPsByHandleError,
  InvalidAddressError,
  InvalidBlockArgumentError,
  InvalidSizeError,
  MAX_BLOCK_ADDRESSES,
  MaxRetriesError,
  NO_RESERVATIONS,
  NoFreeBlocksError,
  ORPHANED_BLOCKS_POOL,
  OwnerPreconditionError,
  StaleAffinityError,
  VM_OWNER_SWAP_RETRIES,
  WINDOWS_RESERVED_HANDLE,
  addressOf,
  addressState,
  affinityString,
  assertAffinity,
  assignInBlock,
  attributesFor,
  autoAssignInBlock,
  blockCap,
  blockCidrForAddress,
  blockRange,
  blockSize,
  bumpSequenceNumber,
  canonicalCidr,
  clearAffinity,
  computeUtilization,
  countingDatastore,
  createIpamClient,
  createReservationFilter,
  createVMHandleId,
  decrementHandleCount,
  ensureActiveVMOwnerAttrs,
  familyBits,
  fnv1Hash32,
  formatAddress,
  formatCidr,
  garbageCollectCooldown,
  handleCountForFamily,
  hostOwnsBlock,
  inUseCount,
  inUseIPs,
  incrementHandleCount,
  intersectRanges,
  ipsForHandle,
  isEmpty,
  newBlock,
  normalizeRanges,
  numFree,
  numReserved,
  numReservedIPsInCIDR,
  ordinalOf,
  ownerMatches,
  parseAddress,
  parseCidr,
  parseReservedCidrs,
  partialAutoAssignResult,
  partialReleaseResult,
  randomBlockGenerator,
  rangeOfCidr,
  rangesContain,
  rangesSize,
  releaseHandleInBlock,
  releaseInBlock,
  sanitizeHandle,
  sequenceNumberFor,
  sequentialBlockGenerator,
  setOwnerAttributesInBlock,
  subtractRanges,
  systemClock,
  unionRanges,
  unixNanos,
  validateOwnerAttributeUpdates,
  withAffinity,
  withBlockPrefix,
  withCasRetry
};
//# sourceMappingURL=core.js.map