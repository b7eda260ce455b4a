import { Context, Effect, Layer, Schema } from "effect"
import {
  CountryCode,
  Currency,
  type IdGenerator,
  InvalidState,
  Metadata,
  type NotFound,
  type ValidationFailed,
  decodeInputEffect,
  fieldError,
  invalidField,
  isCurrency,
  newId,
  now,
  validationFailed
} from "@paykit/core"
import { BILLING_REQUEST_STATUSES, type BillingRequestAction, billingRequestMachine, buildActions, findAction, incompleteFields } from "@paykit/machines"
import {
  BILLING_REQUESTS,
  Email,
  isMandateSchemeOfCurrency,
  paymentRequestScheme,
  resolveBankDetails,
  validateBillingRequestCreate,
  validateCollectBankAccount
} from "@paykit/validation"
import { EventLog } from "../kernel/ports/event-log.ts"
import { eq, oneOf, type Page } from "../kernel/ports/list-query.ts"
import { NameVerifier } from "../kernel/ports/name-verifier.ts"
import { Transactor, type Versioned } from "../kernel/ports/repository.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "./repositories.ts"
import { CreditorRepository } from "../creditors/repositories.ts"
import { CustomerBankAccountRepository, CustomerRepository } from "../collections/repositories.ts"
import type { CustomerBillingDetail } from "./domain/billing-details.ts"
import type { BillingRequest, StoredMandateRequest, StoredPaymentRequest, StoredSubscriptionRequest } from "./domain/billing-requests.ts"
import {
  checkBillingRequestEvent,
  embedBillingDetail,
  embedCustomer,
  factsOf,
  stepBillingRequest
} from "./billing-request-steps.ts"
import type { Customer } from "../collections/domain/customers.ts"
import type { Institution } from "./domain/institutions.ts"
import { Customers } from "../collections/customers.ts"
import { Institutions } from "./institutions.ts"
import { idFilter, listFields, toListQuery } from "../kernel/list-params.ts"
import { Mandates } from "../collections/mandates.ts"
import { Payments } from "../collections/payments.ts"
import { Subscriptions } from "../collections/subscriptions.ts"
import { isEurozone, schemeRefusal } from "../creditors/scheme-identifiers.ts"
import { resolveCreditor } from "../creditors/creditor-link.ts"
import { API_CAUSE, applyCreation, emit, insertNew, save, captureUnitOfWork } from "../kernel/support.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"
import { decodeCommand } from "../kernel/commands.ts"
import { CustomerUpdateRequest } from "../collections/domain/customers.ts"
import { CustomerBankAccountCreateRequest } from "../collections/domain/customer-bank-accounts.ts"
import { MandateCreateRequest } from "../collections/domain/mandates.ts"
import { PaymentCreateRequest } from "../collections/domain/payments.ts"
import { SubscriptionCreateRequest } from "../collections/domain/subscriptions.ts"

const ROOT = BILLING_REQUESTS

/** The exact message the real API gives when confirmation of payee finds another name. */
export const NAME_MISMATCH_MESSAGE = "Account holder name does not match bank account details provided"

export const BillingRequestListParams = Schema.Struct({
  ...listFields("billing_request"),
  customer: idFilter("customer"),
  status: Schema.optionalKey(Schema.Union([Schema.Literals(BILLING_REQUEST_STATUSES), Schema.Array(Schema.Literals(BILLING_REQUEST_STATUSES))]))
})

const Text = Schema.optionalKey(Schema.NullOr(Schema.String))

export const CollectCustomerDetailsRequest = Schema.Struct({
  customer: Schema.optionalKey(Schema.Struct({
    email: Schema.optionalKey(Schema.NullOr(Email)),
    given_name: Text,
    family_name: Text,
    company_name: Text,
    language: Text,
    phone_number: Text,
    metadata: Schema.optionalKey(Metadata)
  })),
  customer_billing_detail: Schema.optionalKey(Schema.Struct({
    address_line1: Text,
    address_line2: Text,
    address_line3: Text,
    city: Text,
    region: Text,
    postal_code: Text,
    country_code: Schema.optionalKey(Schema.NullOr(CountryCode)),
    swedish_identity_number: Text,
    danish_identity_number: Text,
    ip_address: Text
  }))
})

export const ConfirmPayerDetailsRequest = Schema.Struct({
  payer_requested_dual_signature: Schema.optionalKey(Schema.Boolean),
  metadata: Schema.optionalKey(Metadata)
})
export const ChooseCurrencyRequest = Schema.Struct({ currency: Currency, metadata: Schema.optionalKey(Metadata) })
export const SelectInstitutionRequest = Schema.Struct({ institution: Schema.String, country_code: CountryCode })
export const NotifyRequest = Schema.Struct({
  notification_type: Schema.Literals(["email"]),
  redirect_uri: Schema.optionalKey(Schema.String)
})

type Errors = ValidationFailed | InvalidState | NotFound

/** The scheme a bank authorisation of this request runs on (institution lists are per scheme). */
export const bankAuthorisationScheme = (br: BillingRequest) =>
  br.payment_request !== null ? br.payment_request.scheme : "faster_payments" as const

export class BillingRequests extends Context.Service<BillingRequests, {
  readonly create: (organisation: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly get: (organisation: string, id: string) => Effect.Effect<BillingRequest, NotFound>
  readonly list: (organisation: string, params: unknown) => Effect.Effect<Page<BillingRequest>, ValidationFailed>
  readonly collectCustomerDetails: (organisation: string, id: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly collectBankAccount: (organisation: string, id: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly confirmPayerDetails: (organisation: string, id: string, input?: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly fulfil: (organisation: string, id: string, input?: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly cancel: (organisation: string, id: string, input?: unknown) => Effect.Effect<BillingRequest, Errors>
  /** Records the request to notify the payer. No email is sent: see docs/engine.md. */
  readonly notify: (organisation: string, id: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly fallback: (organisation: string, id: string, input?: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly chooseCurrency: (organisation: string, id: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  readonly selectInstitution: (organisation: string, id: string, input: unknown) => Effect.Effect<BillingRequest, Errors>
  /** `GET /billing_requests/{id}/institutions`. */
  readonly institutions: (organisation: string, id: string, params: unknown) => Effect.Effect<ReadonlyArray<Institution>, ValidationFailed | NotFound>
}>()("@paykit/engine/BillingRequests") {
  static readonly layer: Layer.Layer<
    BillingRequests,
    never,
    | BillingRequestRepository
    | CustomerBillingDetailRepository
    | CustomerRepository
    | CustomerBankAccountRepository
    | CreditorRepository
    | Customers
    | Mandates
    | Payments
    | Subscriptions
    | Institutions
    | NameVerifier
    | Transactor
    | IdGenerator
    | EventLog
  > = Layer.effect(
    BillingRequests,
    Effect.gen(function*() {
      const requests = yield* BillingRequestRepository
      const details = yield* CustomerBillingDetailRepository
      const customers = yield* CustomerRepository
      const accounts = yield* CustomerBankAccountRepository
      const creditors = yield* CreditorRepository
      const customerService = yield* Customers
      const mandateService = yield* Mandates
      const paymentService = yield* Payments
      const subscriptionService = yield* Subscriptions
      const institutions = yield* Institutions
      const verifier = yield* NameVerifier
      const run = yield* captureUnitOfWork

      const decodeList = decodeInputEffect(BillingRequestListParams, ROOT)
      const decodeDetails = decodeInputEffect(CollectCustomerDetailsRequest, ROOT)
      const decodeMetadata = decodeInputEffect(MetadataUpdateRequest, ROOT)
      const decodeConfirm = decodeInputEffect(ConfirmPayerDetailsRequest, ROOT)
      const decodeCurrency = decodeInputEffect(ChooseCurrencyRequest, ROOT)
      const decodeInstitution = decodeInputEffect(SelectInstitutionRequest, ROOT)
      const decodeNotify = decodeInputEffect(NotifyRequest, ROOT)

      /** The request with `resources` as its customer, billing detail and bank account are now. */
      const present = (organisation: string, br: BillingRequest) =>
        Effect.gen(function*() {
          const customer = yield* Effect.orDie(customers.get(organisation, br.links.customer))
          const detail = yield* Effect.orDie(details.get(organisation, br.links.customer_billing_detail))
          const account = br.links.customer_bank_account === undefined
            ? null
            : (yield* Effect.orDie(accounts.get(organisation, br.links.customer_bank_account))).resource
          return {
            ...br,
            resources: { customer: embedCustomer(customer.resource), customer_billing_detail: embedBillingDetail(detail.resource), customer_bank_account: account }
          }
        })

      const create = (organisation: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* Effect.fromResult(validateBillingRequestCreate(input))
          // Instalment schedules are created by a service this engine does not have yet.
          const unsupported = [
            ...(req.instalment_schedule_request === undefined || req.instalment_schedule_request === null ? [] : [fieldError(ROOT, ["instalment_schedule_request"], "is not supported by this engine yet")])
          ]
          const mandateReq = req.mandate_request ?? undefined
          const paymentReq = req.payment_request ?? undefined
          if (unsupported.length > 0) return yield* validationFailed(unsupported)
          const creditor = yield* resolveCreditor(creditors, organisation, ROOT, req.links?.creditor)
          const requestedScheme = mandateReq?.scheme ?? undefined
          const refusal = requestedScheme === undefined ? undefined : schemeRefusal(creditor.resource, requestedScheme)
          if (refusal !== undefined) return yield* invalidField(ROOT, ["mandate_request", "scheme"], refusal)
          const at = yield* now
          const customer = req.links?.customer === undefined
            ? yield* blankCustomer(organisation)
            : (yield* customers.get(organisation, req.links.customer).pipe(
              Effect.mapError(() => invalidField(ROOT, ["links", "customer"], "must be a customer of this organisation"))
            )).resource
          let accountId: string | undefined
          if (req.links?.customer_bank_account !== undefined) {
            const account = yield* accounts.get(organisation, req.links.customer_bank_account).pipe(
              Effect.mapError(() => invalidField(ROOT, ["links", "customer_bank_account"], "must be a customer bank account of this organisation"))
            )
            if (account.resource.links.customer !== customer.id || !account.resource.enabled) {
              return yield* invalidField(ROOT, ["links", "customer_bank_account"], "must be an enabled bank account of the billing request's customer")
            }
            accountId = account.resource.id
          }
          const detail: CustomerBillingDetail = {
            id: yield* newId("customer_billing_detail"),
            created_at: at,
            address_line1: customer.address_line1,
            address_line2: customer.address_line2,
            address_line3: customer.address_line3,
            city: customer.city,
            region: customer.region,
            postal_code: customer.postal_code,
            country_code: customer.country_code,
            swedish_identity_number: customer.swedish_identity_number,
            danish_identity_number: customer.danish_identity_number,
            ip_address: null,
            schemes: [],
            links: { customer: customer.id }
          }
          yield* insertNew(details, organisation, detail)
          const mandate_request: StoredMandateRequest | null = mandateReq === undefined ? null : {
            currency: mandateReq.currency,
            scheme: mandateReq.scheme ?? null,
            verify: mandateReq.verify ?? "recommended",
            metadata: mandateReq.metadata ?? {},
            reference: mandateReq.reference ?? null,
            description: mandateReq.description ?? null,
            constraints: mandateReq.constraints ?? null,
            ...(mandateReq.sweeping === undefined ? {} : { sweeping: mandateReq.sweeping }),
            ...(mandateReq.authorisation_source === undefined ? {} : { authorisation_source: mandateReq.authorisation_source }),
            funds_settlement: mandateReq.funds_settlement ?? "managed",
            consent_type: mandateReq.consent_type ?? null,
            payer_requested_dual_signature: false,
            links: {}
          }
          const payment_request: StoredPaymentRequest | null = paymentReq === undefined ? null : {
            amount: paymentReq.amount,
            currency: paymentReq.currency,
            description: paymentReq.description ?? null,
            scheme: paymentRequestScheme(paymentReq),
            funds_settlement: paymentReq.funds_settlement ?? "managed",
            app_fee: paymentReq.app_fee ?? null,
            metadata: paymentReq.metadata ?? {},
            reference: paymentReq.reference ?? null,
            retry_if_possible: paymentReq.retry_if_possible ?? false,
            links: {}
          }
          const subReq = req.subscription_request ?? undefined
          // @paykit/validation has checked it is with an ACH or PAD mandate request in its currency.
          const subscription_request: StoredSubscriptionRequest | null = subReq === undefined ? null : {
            amount: subReq.amount,
            app_fee: subReq.app_fee ?? null,
            count: subReq.count ?? null,
            currency: subReq.currency,
            day_of_month: subReq.day_of_month ?? null,
            interval: subReq.interval ?? 1,
            interval_unit: subReq.interval_unit,
            metadata: subReq.metadata ?? {},
            month: subReq.month ?? null,
            name: subReq.name ?? null,
            payment_reference: subReq.payment_reference ?? null,
            retry_if_possible: subReq.retry_if_possible ?? false,
            start_date: subReq.start_date ?? null,
            links: {}
          }
          const shape = { mandate_request, payment_request }
          const fields: Omit<BillingRequest, "status"> = {
            id: yield* newId("billing_request"),
            created_at: at,
            mandate_request,
            payment_request,
            subscription_request,
            instalment_schedule_request: null,
            metadata: req.metadata ?? {},
            fallback_enabled: req.fallback_enabled ?? false,
            fallback_occurred: false,
            purpose_code: req.purpose_code ?? null,
            payment_purpose_code: req.payment_purpose_code ?? null,
            payment_context_code: req.payment_context_code ?? null,
            actions: buildActions(factsOf(shape, customer, detail, accountId !== undefined, false)),
            resources: { customer: embedCustomer(customer), customer_billing_detail: embedBillingDetail(detail), customer_bank_account: null },
            links: {
              creditor: creditor.resource.id,
              customer: customer.id,
              customer_billing_detail: detail.id,
              ...(accountId === undefined ? {} : { customer_bank_account: accountId })
            }
          }
          const { resource: br } = yield* applyCreation(requests, {
            organisation,
            machine: billingRequestMachine,
            state: "pending",
            resource: fields,
            cause: API_CAUSE("billing_request_created", "This billing request has been created."),
            links: { billing_request: fields.id, customer: customer.id, creditor: creditor.resource.id }
          })
          return yield* present(organisation, br)
        })

      /** The empty customer a billing request starts with when none is linked; its details come later. */
      const blankCustomer = (organisation: string) =>
        Effect.gen(function*() {
          const customer: Customer = {
            id: yield* newId("customer"),
            created_at: yield* now,
            email: null,
            given_name: null,
            family_name: null,
            company_name: null,
            address_line1: null,
            address_line2: null,
            address_line3: null,
            city: null,
            region: null,
            postal_code: null,
            country_code: null,
            language: "en",
            phone_number: null,
            swedish_identity_number: null,
            danish_identity_number: null,
            metadata: {}
          }
          yield* insertNew(customers, organisation, customer)
          return customer
        })

      const load = (organisation: string, id: string) => requests.get(organisation, id)

      const withIncompleteFields = (actions: ReadonlyArray<BillingRequestAction>, incomplete: ReturnType<typeof incompleteFields>) =>
        actions.map((a) => (a.type === "collect_customer_details" ? { ...a, collect_customer_details: { incomplete_fields: incomplete } } : a))

      const collectCustomerDetails = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeDetails(input)
          const current = yield* load(organisation, id)
          const br = current.resource
          yield* checkBillingRequestEvent(br, "collect_customer_details")
          const customer = yield* Effect.orDie(customers.get(organisation, br.links.customer))
          const detail = yield* Effect.orDie(details.get(organisation, br.links.customer_billing_detail))
          const c = req.customer ?? {}
          const d = req.customer_billing_detail ?? {}
          const mergedCustomer: Customer = { ...customer.resource, ...c, language: c.language ?? customer.resource.language }
          const mergedDetail: CustomerBillingDetail = { ...detail.resource, ...d }
          const incomplete = incompleteFields(factsOf(br, mergedCustomer, mergedDetail, false, false))
          const missing = [
            ...incomplete.customer.map((f) => fieldError(ROOT, ["customer", f], "is required for this billing request")),
            ...incomplete.customer_billing_detail.map((f) => fieldError(ROOT, ["customer_billing_detail", f], "is required for this billing request's scheme"))
          ]
          if (missing.length > 0) return yield* validationFailed(missing)
          // The customer is updated immediately, addresses included, through the customers service.
          yield* customerService.update(organisation, customer.resource.id, yield* decodeCommand(CustomerUpdateRequest, "customers")({
            email: mergedCustomer.email,
            given_name: mergedCustomer.given_name,
            family_name: mergedCustomer.family_name,
            company_name: mergedCustomer.company_name,
            language: mergedCustomer.language,
            phone_number: mergedCustomer.phone_number,
            metadata: mergedCustomer.metadata,
            address_line1: mergedDetail.address_line1,
            address_line2: mergedDetail.address_line2,
            address_line3: mergedDetail.address_line3,
            city: mergedDetail.city,
            region: mergedDetail.region,
            postal_code: mergedDetail.postal_code,
            country_code: mergedDetail.country_code,
            ...(mergedDetail.swedish_identity_number === null ? {} : { swedish_identity_number: mergedDetail.swedish_identity_number }),
            ...(mergedDetail.danish_identity_number === null ? {} : { danish_identity_number: mergedDetail.danish_identity_number })
          }))
          const schemes = br.mandate_request?.scheme === null || br.mandate_request === null ? [] : [br.mandate_request.scheme]
          yield* save(details, organisation, detail, { ...mergedDetail, schemes })
          const next = yield* stepBillingRequest(requests, organisation, current, "collect_customer_details",
            { origin: "payer", cause: "billing_request_collect_customer_details", description: "The payer's details were collected." },
            { prepare: (b) => ({ ...b, actions: withIncompleteFields(b.actions, incomplete) }) })
          return yield* present(organisation, next)
        })

      const collectBankAccount = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* Effect.fromResult(validateCollectBankAccount(input))
          const current = yield* load(organisation, id)
          const br = current.resource
          yield* checkBillingRequestEvent(br, "collect_bank_account")
          if (req.pay_id !== undefined) return yield* invalidField(ROOT, ["pay_id"], "is not supported by this engine: PayTo PayIDs cannot be collected")
          const resolution = resolveBankDetails(req, { rejectSekIban: true, checkCurrencyAndAccountType: true })
          if (!resolution.valid) return yield* validationFailed(resolution.issues.map((i) => fieldError(ROOT, i.path, i.message)))
          const resolved = resolution.account
          const wanted = br.mandate_request?.currency ?? br.payment_request?.currency
          if (wanted !== undefined && resolved.currency !== null && resolved.currency !== wanted) {
            return yield* invalidField(ROOT, ["currency"], `must be ${wanted}, the currency of this billing request`)
          }
          const holder = req.account_holder_name ?? ""
          // Confirmation of payee runs for UK and eurozone accounts; only a clear mismatch is refused.
          if (resolved.country_code === "GB" || isEurozone(resolved.country_code)) {
            const verification = yield* verifier.verify({
              account_holder_name: holder,
              account_number_ending: resolved.account_number_ending,
              country_code: resolved.country_code
            })
            if (verification.result === "no_match") return yield* invalidField(ROOT, ["account_holder_name"], NAME_MISMATCH_MESSAGE)
          }
          const details = resolved.iban !== null
            ? { iban: resolved.iban }
            : {
              country_code: resolved.country_code,
              ...(resolved.account_number === null ? {} : { account_number: resolved.account_number }),
              ...(resolved.branch_code === null ? {} : { branch_code: resolved.branch_code }),
              ...(resolved.bank_code === null ? {} : { bank_code: resolved.bank_code }),
              ...(resolved.account_number_suffix === null ? {} : { account_number_suffix: resolved.account_number_suffix })
            }
          const account = yield* customerService.createBankAccount(organisation, yield* decodeCommand(CustomerBankAccountCreateRequest, "customer_bank_accounts")({
            account_holder_name: holder,
            ...details,
            ...(resolved.currency === null ? {} : { currency: resolved.currency }),
            ...(req.account_type === undefined ? {} : { account_type: req.account_type }),
            ...(req.metadata === undefined ? {} : { metadata: req.metadata }),
            links: { customer: br.links.customer }
          }))
          const next = yield* stepBillingRequest(requests, organisation, current, "collect_bank_account",
            { origin: "payer", cause: "billing_request_collect_bank_account", description: "The payer's bank account was collected." },
            { patch: (b) => ({ ...b, links: { ...b.links, customer_bank_account: account.id } }) })
          return yield* present(organisation, next)
        })

      const confirmPayerDetails = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeConfirm(input ?? {})
          const current = yield* load(organisation, id)
          const next = yield* stepBillingRequest(requests, organisation, current, "confirm_payer_details",
            { origin: "payer", cause: "billing_request_payer_details_confirmed", description: "The payer confirmed their details." },
            {
              patch: (b) => ({
                ...b,
                metadata: req.metadata ?? b.metadata,
                mandate_request: b.mandate_request === null
                  ? null
                  : { ...b.mandate_request, payer_requested_dual_signature: req.payer_requested_dual_signature ?? b.mandate_request.payer_requested_dual_signature }
              })
            })
          return yield* present(organisation, next)
        })

      const fulfil = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeMetadata(input ?? {})
          const current = yield* load(organisation, id)
          const fulfilling = yield* stepBillingRequest(requests, organisation, current, "fulfil",
            API_CAUSE("billing_request_fulfil", "The billing request is being fulfilled."),
            { patch: (b) => ({ ...b, metadata: req.metadata ?? b.metadata }) })
          let mandateId: string | undefined
          let paymentId: string | undefined
          const m = fulfilling.mandate_request
          if (m !== null) {
            const accountId = fulfilling.links.customer_bank_account
            if (accountId === undefined) {
              return yield* new InvalidState({ reason: "billing_request_bank_account_missing", message: "The billing request has no bank account to create the mandate on" })
            }
            const detail = yield* Effect.orDie(details.get(organisation, fulfilling.links.customer_billing_detail))
            const mandate = yield* mandateService.create(organisation, yield* decodeCommand(MandateCreateRequest, "mandates")({
              ...(m.scheme === null ? {} : { scheme: m.scheme }),
              ...(m.reference === null ? {} : { reference: m.reference }),
              metadata: m.metadata,
              ...(m.authorisation_source === undefined ? {} : { authorisation_source: m.authorisation_source }),
              ...(detail.resource.ip_address === null ? {} : { payer_ip_address: detail.resource.ip_address }),
              links: { customer_bank_account: accountId, creditor: fulfilling.links.creditor }
            }), { customerApproval: m.payer_requested_dual_signature })
            mandateId = mandate.id
          }
          const p = fulfilling.payment_request
          if (p !== null && mandateId === undefined) {
            // Pay by Bank: the payer authorised this payment at their bank (the request's
            // bank_authorisation action), so it is paid now without a mandate.
            const payment = yield* paymentService.createInstant(organisation, {
              amount: p.amount,
              currency: p.currency,
              scheme: p.scheme,
              creditor: fulfilling.links.creditor,
              description: p.description,
              reference: p.reference,
              app_fee: p.app_fee,
              metadata: p.metadata
            })
            paymentId = payment.id
          }
          if (p !== null && mandateId !== undefined) {
            const payment = yield* paymentService.create(organisation, yield* decodeCommand(PaymentCreateRequest, "payments")({
              amount: p.amount,
              currency: p.currency,
              ...(p.description === null ? {} : { description: p.description }),
              ...(p.app_fee === null ? {} : { app_fee: p.app_fee }),
              metadata: p.metadata,
              retry_if_possible: p.retry_if_possible,
              links: { mandate: mandateId }
            }))
            paymentId = payment.id
          }
          let subscriptionId: string | undefined
          const sr = fulfilling.subscription_request
          if (sr !== null && mandateId !== undefined) {
            // Planned by @paykit/schedule through the Subscriptions service, like POST /subscriptions.
            const subscription = yield* subscriptionService.create(organisation, yield* decodeCommand(SubscriptionCreateRequest, "subscriptions")({
              amount: sr.amount,
              currency: sr.currency,
              interval: sr.interval,
              interval_unit: sr.interval_unit,
              ...(sr.day_of_month === null ? {} : { day_of_month: sr.day_of_month }),
              ...(sr.month === null ? {} : { month: sr.month }),
              ...(sr.count === null ? {} : { count: sr.count }),
              ...(sr.name === null ? {} : { name: sr.name }),
              ...(sr.payment_reference === null ? {} : { payment_reference: sr.payment_reference }),
              ...(sr.app_fee === null ? {} : { app_fee: sr.app_fee }),
              ...(sr.start_date === null ? {} : { start_date: sr.start_date }),
              retry_if_possible: sr.retry_if_possible,
              metadata: sr.metadata,
              links: { mandate: mandateId }
            }))
            subscriptionId = subscription.id
          }
          const stored = yield* load(organisation, id)
          const next = yield* stepBillingRequest(requests, organisation, stored, "fulfilment_completed",
            { origin: "gocardless", cause: "billing_request_fulfilled", description: "This billing request has been fulfilled, and the resources have been created." },
            {
              patch: (b) => ({
                ...b,
                mandate_request: b.mandate_request === null || mandateId === undefined ? b.mandate_request : { ...b.mandate_request, links: { mandate: mandateId } },
                payment_request: b.payment_request === null || paymentId === undefined ? b.payment_request : { ...b.payment_request, links: { payment: paymentId } },
                subscription_request: b.subscription_request === null || subscriptionId === undefined ? b.subscription_request : { ...b.subscription_request, links: { subscription: subscriptionId } },
                links: {
                  ...b.links,
                  ...(mandateId === undefined ? {} : { mandate_request_mandate: mandateId }),
                  ...(paymentId === undefined ? {} : { payment_request_payment: paymentId }),
                  ...(subscriptionId === undefined ? {} : { subscription_request_subscription: subscriptionId })
                }
              })
            })
          return yield* present(organisation, next)
        })

      const cancel = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeMetadata(input ?? {})
          const current = yield* load(organisation, id)
          const next = yield* stepBillingRequest(requests, organisation, current, "cancel",
            API_CAUSE("billing_request_cancelled", "This billing request has been cancelled."),
            { patch: (b) => ({ ...b, metadata: req.metadata ?? b.metadata }) })
          return yield* present(organisation, next)
        })

      const notify = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeNotify(input)
          const current = yield* load(organisation, id)
          const br = current.resource
          if (findAction(br.actions, "bank_authorisation") === undefined) {
            return yield* new InvalidState({ reason: "notification_not_supported", message: "Only Pay by Bank billing requests (with a bank authorisation) can notify the payer" })
          }
          if (br.status !== "pending" && br.status !== "ready_to_fulfil") {
            return yield* new InvalidState({ reason: "billing_request_not_pending", message: `The billing request is ${br.status}; the payer cannot be notified` })
          }
          const customer = yield* Effect.orDie(customers.get(organisation, br.links.customer))
          if (customer.resource.email === null) {
            return yield* new InvalidState({ reason: "customer_email_missing", message: "The customer has no email address to notify" })
          }
          yield* emit(organisation, {
            resource_type: "billing_requests",
            action: "notification_recorded",
            links: { billing_request: br.id, customer: br.links.customer },
            cause: API_CAUSE(
              "billing_request_notification_requested",
              `An email notification to ${customer.resource.email} was requested${req.redirect_uri === undefined ? "" : ` (redirect_uri ${req.redirect_uri})`}. This engine records it; it sends no email.`
            ),
            resource_metadata: br.metadata
          })
          return yield* present(organisation, br)
        })

      const fallback = (organisation: string, id: string) =>
        Effect.gen(function*() {
          const current = yield* load(organisation, id)
          const next = yield* stepBillingRequest(requests, organisation, current, "fallback",
            { origin: "payer", cause: "billing_request_fallback", description: "The payer fell back from Pay by Bank to direct debit." },
            { patch: (b) => ({ ...b, fallback_occurred: true }) })
          return yield* present(organisation, next)
        })

      const chooseCurrency = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeCurrency(input)
          const current = yield* load(organisation, id)
          const br = current.resource
          const m = br.mandate_request
          if (br.payment_request === null && m !== null && br.links.customer_bank_account !== undefined) {
            return yield* new InvalidState({ reason: "bank_account_already_collected", message: "The currency cannot change once a bank account has been collected" })
          }
          const customer = yield* Effect.orDie(customers.get(organisation, br.links.customer))
          const detail = yield* Effect.orDie(details.get(organisation, br.links.customer_billing_detail))
          const mandate_request = m === null ? null : {
            ...m,
            currency: req.currency,
            // The scheme stays when the new currency has it; otherwise the payer's scheme is chosen at fulfilment.
            scheme: m.scheme !== null && isCurrency(req.currency) && isMandateSchemeOfCurrency(m.scheme, req.currency) ? m.scheme : null
          }
          const incomplete = incompleteFields(factsOf({ mandate_request, payment_request: br.payment_request }, customer.resource, detail.resource, false, false))
          const detailsDone = incomplete.customer.length === 0 && incomplete.customer_billing_detail.length === 0
          // Choosing again reopens the choice; customer details reopen when the new scheme needs more.
          const reopen = (b: BillingRequest): BillingRequest => ({
            ...b,
            actions: withIncompleteFields(b.actions, incomplete).map((a) =>
              a.type === "choose_currency" || (a.type === "collect_customer_details" && !detailsDone) ? { ...a, status: "pending" as const } : a)
          })
          const next = yield* stepBillingRequest(requests, organisation, current, "choose_currency",
            { origin: "payer", cause: "billing_request_choose_currency", description: `The currency ${req.currency} was chosen.` },
            {
              prepare: (b) => (b.payment_request === null ? reopen(b) : b),
              patch: (b) => ({ ...b, mandate_request, metadata: req.metadata ?? b.metadata })
            })
          return yield* present(organisation, next)
        })

      const selectInstitution = (organisation: string, id: string, input: unknown) =>
        Effect.gen(function*() {
          const req = yield* decodeInstitution(input)
          const current = yield* load(organisation, id)
          const br = current.resource
          yield* checkBillingRequestEvent(br, "select_institution")
          const record = yield* institutions.record(req.institution).pipe(
            Effect.mapError(() => invalidField(ROOT, ["institution"], "must be the id of a known institution"))
          )
          if (record.country_code !== req.country_code) return yield* invalidField(ROOT, ["institution"], `is not an institution of ${req.country_code}`)
          if (record.status !== "enabled") return yield* invalidField(ROOT, ["institution"], `is ${record.status.replace("_", " ")}`)
          const scheme = bankAuthorisationScheme(br)
          if (!record.schemes.includes(scheme)) return yield* invalidField(ROOT, ["institution"], `does not support ${scheme}`)
          const next = yield* stepBillingRequest(requests, organisation, current, "select_institution",
            { origin: "payer", cause: "billing_request_select_institution", description: `The payer chose ${record.name}.` },
            { patch: (b) => ({ ...b, links: { ...b.links, institution: record.id } }) })
          return yield* present(organisation, next)
        })

      const list = (organisation: string, p: unknown) =>
        Effect.gen(function*() {
          const params = yield* decodeList(p)
          const statuses = params.status === undefined ? undefined : typeof params.status === "string" ? [params.status] : params.status
          const page = yield* requests.list(organisation, toListQuery(params, {
            customer: params.customer === undefined ? undefined : eq(params.customer),
            status: statuses === undefined ? undefined : oneOf(statuses)
          }))
          return { ...page, items: yield* Effect.forEach(page.items, (br) => present(organisation, br)) }
        })

      return BillingRequests.of({
        create: (o, i) => run(create(o, i)),
        get: (o, id) => Effect.flatMap(load(o, id), (v: Versioned<BillingRequest>) => present(o, v.resource)),
        list,
        collectCustomerDetails: (o, id, i) => run(collectCustomerDetails(o, id, i)),
        collectBankAccount: (o, id, i) => run(collectBankAccount(o, id, i)),
        confirmPayerDetails: (o, id, i) => run(confirmPayerDetails(o, id, i)),
        fulfil: (o, id, i) => run(fulfil(o, id, i)),
        cancel: (o, id, i) => run(cancel(o, id, i)),
        notify: (o, id, i) => run(notify(o, id, i)),
        fallback: (o, id) => run(fallback(o, id)),
        chooseCurrency: (o, id, i) => run(chooseCurrency(o, id, i)),
        selectInstitution: (o, id, i) => run(selectInstitution(o, id, i)),
        institutions: (o, id, p) =>
          Effect.flatMap(load(o, id), (v) => institutions.search(p, bankAuthorisationScheme(v.resource)))
      })
    })
  )
}

