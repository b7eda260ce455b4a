import { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import { defineRoom, store } from "../kernel/room.ts"
import { MetadataUpdateRequest } from "../kernel/metadata-requests.ts"
import { BankAuthorisationCreateRequest } from "./domain/bank-authorisation-commands.ts"
import { bankAuthorisations } from "./domain/bank-authorisations.ts"
import { customerBillingDetails } from "./domain/billing-details.ts"
import {
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  NotifyRequest,
  SelectInstitutionRequest
} from "./domain/billing-request-commands.ts"
import { billingRequests } from "./domain/billing-requests.ts"
import { PayerAuthorisationBody } from "./domain/payer-authorisation-commands.ts"
import { payerAuthorisations } from "./domain/payer-authorisations.ts"
import { payerFlowDeadlines } from "./due.ts"
import { FLOW_REQUEST_BODIES } from "./flow-request-schemas.ts"
import { payerFlowDueWork } from "./jobs.ts"
import {
  BankAuthorisationRepository, BillingRequestRepository, CustomerBillingDetailRepository, FLOW_STORES, PayerAuthorisationRepository
} from "./repositories.ts"

/** The payer flows' room: billing requests, their hosted flows, bank and payer authorisations. */
export const payerFlowsRoom = defineRoom({
  stores: [
    store(BillingRequestRepository, billingRequests),
    store(CustomerBillingDetailRepository, customerBillingDetails),
    store(BankAuthorisationRepository, bankAuthorisations),
    store(PayerAuthorisationRepository, payerAuthorisations),
    ...FLOW_STORES
  ],
  requestBodies: {
    billing_requests: {
      create: BillingRequestCreate,
      collect_customer_details: CollectCustomerDetailsRequest,
      collect_bank_account: CollectBankAccount,
      confirm_payer_details: ConfirmPayerDetailsRequest,
      fulfil: MetadataUpdateRequest,
      cancel: MetadataUpdateRequest,
      notify: NotifyRequest,
      choose_currency: ChooseCurrencyRequest,
      select_institution: SelectInstitutionRequest
    },
    bank_authorisations: { create: BankAuthorisationCreateRequest },
    payer_authorisations: { create: PayerAuthorisationBody, update: PayerAuthorisationBody },
    ...FLOW_REQUEST_BODIES
  },
  dueWork: payerFlowDueWork,
  deadlines: payerFlowDeadlines
})
