import { BillingRequestCreate, CollectBankAccount } from "@paykit/validation"
import { defineRoom, store } from "../registry/room.ts"
import { MetadataUpdateRequest } from "@paykit/core"
import { customerBillingDetails } from "./domain/billing-details.ts"
import {
  ChooseCurrencyRequest,
  CollectCustomerDetailsRequest,
  ConfirmPayerDetailsRequest,
  NotifyRequest,
  SelectInstitutionRequest
} from "./domain/billing-request-commands.ts"
import { billingRequests } from "./domain/billing-requests.ts"
import { BillingRequestRepository, CustomerBillingDetailRepository } from "./repositories.ts"
import { BillingRequests } from "./billing-requests.ts"

/** The billing requests' room: the requests, the billing details they collect, and each action's body. */
export const billingRequestsRoom = defineRoom({
  stores: [
    store(BillingRequestRepository, billingRequests),
    store(CustomerBillingDetailRepository, customerBillingDetails)
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
    }
  },
  services: BillingRequests.layer
})
