import { type Api, field } from "./api.ts"
import { CommandFailure } from "./args.ts"

/**
 * The organisation's clock, on which `paykit logs` and `paykit listen` both show times: the API
 * stamps events and webhook records with it (a sandbox organisation's clock runs ahead of real
 * time once advanced), so `listen` shows a delivery's time on it too rather than the machine's.
 * Its offset is read from `GET /sandbox/simulator/clock`; a live server refuses that path and its
 * organisations run on the real clock, so the offset is nothing there.
 */
export interface OrganisationClock {
  /** Now on the organisation's clock, as the API writes times. */
  readonly now: () => string
  /** Reads the offset again (an advance moves it); keeps the last one when the server does not say. */
  readonly refresh: () => Promise<void>
}

export const organisationClock = async (api: Api): Promise<OrganisationClock> => {
  let offsetMs = 0
  const refresh = async (): Promise<void> => {
    const asked = Date.now()
    try {
      const body = await api.request("GET", "/sandbox/simulator/clock")
      const now = Date.parse(field(body, "simulator_clock", "now"))
      // The server read its clock about half way through the exchange.
      if (Number.isFinite(now)) offsetMs = now - Math.round((asked + Date.now()) / 2)
    } catch (error) {
      if (!(error instanceof CommandFailure) || error.status !== 403) return
      offsetMs = 0
    }
  }
  await refresh()
  return { now: () => new Date(Date.now() + offsetMs).toISOString(), refresh }
}
