import { Effect, Layer } from "effect"
import { PayerRecordEraser } from "../customers/payer-ports.ts"
import { eq } from "../kernel/ports/list-query.ts"
import { save } from "../kernel/support.ts"
import { erasedBillingDetail } from "../billing-requests/domain/billing-details.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "../billing-requests/repositories.ts"
import { BillingRequestFlowRepository } from "./repositories.ts"

/**
 * The customers' `PayerRecordEraser` port: a removed customer's billing details erased, and the
 * customer details prefilled on their billing requests' flows cleared.
 */
export const PayerRecordEraserLive: Layer.Layer<
  PayerRecordEraser,
  never,
  CustomerBillingDetailRepository | BillingRequestRepository | BillingRequestFlowRepository
> = Layer.effect(
  PayerRecordEraser,
  Effect.gen(function*() {
    const details = yield* CustomerBillingDetailRepository
    const requests = yield* BillingRequestRepository
    const flows = yield* BillingRequestFlowRepository
    const erase = (organisation: string, customer: string) =>
      Effect.gen(function*() {
        for (const detail of yield* details.scan(organisation, { customer: eq(customer) })) {
          yield* save(details, organisation, detail, erasedBillingDetail(detail.resource)).pipe(Effect.orDie)
        }
        for (const request of yield* requests.scan(organisation, { customer: eq(customer) })) {
          for (const flow of yield* flows.scan(organisation, { billing_request: eq(request.resource.id) })) {
            if (flow.resource.prefilled_customer !== null) {
              yield* save(flows, organisation, flow, { ...flow.resource, prefilled_customer: null }).pipe(Effect.orDie)
            }
          }
        }
      })
    return PayerRecordEraser.of({ erase })
  })
)
