import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import { BlockList, isIP } from "node:net"

/**
 * Which addresses a webhook may connect to. A live delivery goes to the public internet only:
 * never to loopback, private, link-local, unique-local, carrier-grade NAT, multicast or reserved
 * ranges, nor to a cloud metadata address, so an endpoint URL cannot make paykit reach into its own
 * network (SSRF). The sandbox also allows loopback, where a developer's receiver listens. The
 * address checked is the one connected to: `guardedLookup` is the request's own DNS lookup, so a
 * name that resolves differently on a second query (DNS rebinding) cannot slip past.
 */

export type AddressCategory = "loopback" | "private" | "link-local" | "unique-local" | "metadata" | "reserved"

const RANGES: ReadonlyArray<readonly [AddressCategory, string, number, "ipv4" | "ipv6"]> = [
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["loopback", "::1", 128, "ipv6"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["private", "100.64.0.0", 10, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["unique-local", "fc00::", 7, "ipv6"],
  ["reserved", "0.0.0.0", 8, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["reserved", "192.0.2.0", 24, "ipv4"],
  ["reserved", "198.18.0.0", 15, "ipv4"],
  ["reserved", "198.51.100.0", 24, "ipv4"],
  ["reserved", "203.0.113.0", 24, "ipv4"],
  ["reserved", "224.0.0.0", 4, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  // The unspecified address and the deprecated IPv4-compatible ones (::a.b.c.d): never a public
  // receiver. IPv4-mapped ones (::ffff:a.b.c.d, however written) BlockList checks against the
  // IPv4 ranges above. ::1 is in this range too, but loopback is checked first.
  ["reserved", "::", 96, "ipv6"],
  ["reserved", "ff00::", 8, "ipv6"],
  ["reserved", "64:ff9b::", 96, "ipv6"],
  ["reserved", "2001:db8::", 32, "ipv6"]
]

/** The cloud metadata services' addresses (AWS, GCP, Azure; Alibaba; AWS over IPv6), named apart though their ranges cover them. */
const METADATA: ReadonlyArray<readonly [string, "ipv4" | "ipv6"]> = [
  ["169.254.169.254", "ipv4"], ["100.100.100.200", "ipv4"], ["fd00:ec2::254", "ipv6"]
]

const lists = (() => {
  const byCategory = new Map<AddressCategory, BlockList>()
  const listOf = (category: AddressCategory) => {
    const existing = byCategory.get(category)
    if (existing !== undefined) return existing
    const made = new BlockList()
    byCategory.set(category, made)
    return made
  }
  for (const [address, family] of METADATA) listOf("metadata").addAddress(address, family)
  for (const [category, network, prefix, family] of RANGES) listOf(category).addSubnet(network, prefix, family)
  return [...byCategory.entries()]
})()

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

/** The category of a non-public address, or undefined for a public one. */
export const addressCategory = (address: string): AddressCategory | undefined => {
  const mapped = MAPPED_V4.exec(address)?.[1]
  const target = mapped ?? address
  const family = isIP(target) === 4 ? "ipv4" : isIP(target) === 6 ? "ipv6" : undefined
  if (family === undefined) return "reserved"
  return lists.find(([, list]) => list.check(target, family))?.[0]
}

/** Why a delivery may not connect to `address`, or undefined when it may. */
export const addressRefusal = (address: string, allowLoopback: boolean): string | undefined => {
  const category = addressCategory(address)
  if (category === undefined || (category === "loopback" && allowLoopback)) return undefined
  return `the address ${address} is ${category}; webhooks are delivered to public addresses only`
}

/** A refused address, as a lookup error the request reports as its failure. */
export class RefusedAddress extends Error {
  override readonly name = "RefusedAddress"
  readonly code = "EPAYKIT_REFUSED_ADDRESS"
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<LookupAddress>, family?: number) => void

/** `lookup` for `http(s).request`: resolves as Node does, then keeps only addresses a delivery may connect to. */
export const guardedLookup = (allowLoopback: boolean) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      const refusals = addresses.map((a) => addressRefusal(a.address, allowLoopback))
      const allowed = addresses.filter((_, i) => refusals[i] === undefined)
      const first = allowed[0]
      if (first === undefined) return callback(new RefusedAddress(refusals.find((r) => r !== undefined) ?? `${hostname} has no address`), [])
      if (options.all === true) return callback(null, allowed)
      callback(null, first.address, first.family)
    })
  }

/**
 * Why a name's every address is refused, when it resolves now and none may be connected to; an
 * unresolvable name or one with an allowed address is not refused here (the connect-time lookup
 * still checks the address each delivery connects to). What an endpoint's creation reports, so a
 * name that can only reach refused addresses is said at once rather than at every delivery.
 */
export const resolvedRefusal = (hostname: string, allowLoopback: boolean): Promise<string | undefined> =>
  new Promise((resolve) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error !== null || addresses.length === 0) return resolve(undefined)
      const refusals = addresses.map((a) => addressRefusal(a.address, allowLoopback))
      const first = refusals[0]
      resolve(refusals.every((r) => r !== undefined) && first !== undefined ? `${hostname} resolves to refused addresses: ${first}` : undefined)
    })
  })

