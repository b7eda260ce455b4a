import { defineRoom, store } from "../registry/room.ts"
import { LogoCreateRequest, logos } from "./domain/logos.ts"
import { PublicKeyCreateRequest, publicKeys } from "./domain/public-keys.ts"
import { mandateTransfers, sealedBankDetails } from "./domain/sealed-records.ts"
import { LogoRepository, MandateTransferRepository, PublicKeyRepository, SealedBankDetailsRepository } from "./repositories.ts"

/** The documents' room: public keys, sealed bank details and mandate transfers, logos. */
export const documentsRoom = defineRoom({
  stores: [
    store(PublicKeyRepository, publicKeys),
    store(SealedBankDetailsRepository, sealedBankDetails),
    store(MandateTransferRepository, mandateTransfers),
    store(LogoRepository, logos)
  ],
  requestBodies: { logos: { create: LogoCreateRequest }, public_keys: { create: PublicKeyCreateRequest } }
})
