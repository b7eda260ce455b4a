import { Effect, Exit, Layer } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect, it } from "vitest"
import { NotFound, ValidationFailed, OrganisationId } from "@paykit/core"
import { inMemoryEngine, openSecret, WebhookEndpointRepository, WebhookEndpoints, WebhookSecretKey } from "@paykit/engine"

const ORG = OrganisationId("OR0000000000EA")
const OTHER = OrganisationId("OR0000000000EB")
const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof inMemoryEngine>>>) =>
  Effect.runPromise(Effect.provide(effect, Layer.mergeAll(inMemoryEngine({ seed: 3 }), TestClock.layer())))

const failure = <A, E>(exit: Exit.Exit<A, E>) => Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail")?.error : undefined

describe("webhook endpoints (in memory)", () => {
  it("the secret is shown once, stored sealed, opens for its own endpoint only, and no other organisation sees the endpoint", () =>
    run(Effect.gen(function*() {
      const endpoints = yield* WebhookEndpoints
      const made = yield* endpoints.create(ORG, { url: "http://127.0.0.1:4000/hooks" })
      expect(made.secret.length).toBeGreaterThanOrEqual(43)
      expect(yield* endpoints.get(ORG, made.id)).not.toHaveProperty("secret")
      const stored = yield* (yield* WebhookEndpointRepository).get(ORG, made.id)
      expect(JSON.stringify(stored.resource)).not.toContain(made.secret)
      const box = yield* WebhookSecretKey
      expect(openSecret(box, ORG, stored.resource)).toBe(made.secret)
      expect(openSecret(box, OTHER, stored.resource)).toBeUndefined()
      expect(openSecret(box, ORG, { ...stored.resource, id: "WE0000000000XX" })).toBeUndefined()
      expect(failure(yield* Effect.exit(endpoints.get(OTHER, made.id)))).toBeInstanceOf(NotFound)
      expect((yield* endpoints.list(OTHER, {})).items).toHaveLength(0)
    })))

  it("ensure makes one endpoint per URL across calls, and takes a new secret", () =>
    run(Effect.gen(function*() {
      const endpoints = yield* WebhookEndpoints
      const first = yield* endpoints.ensure(ORG, { url: "http://127.0.0.1:4000/hooks", secret: "first-secret-0000001" })
      const again = yield* endpoints.ensure(ORG, { url: "http://127.0.0.1:4000/hooks", secret: "first-secret-0000001" })
      expect(again).toEqual(first)
      yield* endpoints.ensure(ORG, { url: "http://127.0.0.1:4000/hooks", secret: "second-secret-000002" })
      expect((yield* endpoints.list(ORG, {})).items).toHaveLength(1)
      const stored = yield* (yield* WebhookEndpointRepository).get(ORG, first.id)
      expect(openSecret(yield* WebhookSecretKey, ORG, stored.resource)).toBe("second-secret-000002")
    })))

  it("refuses a URL the sender may never reach, and a malformed one at the edge", () =>
    run(Effect.gen(function*() {
      const endpoints = yield* WebhookEndpoints
      const refused = failure(yield* Effect.exit(endpoints.create(ORG, { url: "http://169.254.169.254/latest" })))
      expect(refused).toBeInstanceOf(ValidationFailed)
      expect(refused instanceof ValidationFailed && refused.errors[0]?.field).toBe("url")
      const made = yield* endpoints.create(ORG, { url: "http://127.0.0.1:4000/hooks" })
      expect(failure(yield* Effect.exit(endpoints.update(ORG, made.id, { url: "http://10.0.0.1/x" })))).toBeInstanceOf(ValidationFailed)
    })))
})

describe("a partner app's endpoint disconnected while a delivery notes its outcome on it", () => {
  it("is read again and disabled: the lost race is not the caller's error", () =>
    run(Effect.gen(function*() {
      yield* (yield* WebhookEndpoints).connectApp(ORG, { app: "AP0000000000EA", url: "http://127.0.0.1:4000/app", secret: "app-secret-0000000001" })
      const repository = yield* WebhookEndpointRepository
      // A delivery's outcome lands between the read and the write, once: the write's version is stale.
      let raced = false
      const racing = WebhookEndpointRepository.of({
        ...repository,
        update: (organisation, next, version) =>
          raced
            ? repository.update(organisation, next, version)
            : Effect.andThen(
              Effect.flatMap(repository.get(organisation, next.id), (read) => {
                raced = true
                return repository.update(organisation, { ...read.resource, failing_since: "2026-11-23T09:00:00.000Z" as typeof read.resource.failing_since }, read.version)
              }),
              repository.update(organisation, next, version)
            )
      })
      // Fresh: the engine's own service, built on the plain repository, would be shared otherwise.
      const endpoints = yield* Layer.build(Layer.fresh(WebhookEndpoints.layer).pipe(Layer.provide(Layer.succeed(WebhookEndpointRepository, racing))))
      yield* Effect.provideContext(WebhookEndpoints.use((service) => service.disconnectApp(ORG, "AP0000000000EA")), endpoints)
      expect(raced).toBe(true)
      const [stored] = yield* repository.scan(ORG, {})
      expect(stored?.resource.enabled).toBe(false)
      expect(stored?.resource.failing_since).toBe("2026-11-23T09:00:00.000Z")
    }).pipe(Effect.scoped)))
})
