import { Layer } from "effect"
import { defineRoom } from "../kernel/room.ts"
import { fromBackend } from "../kernel/repository-service.ts"
import { LogoCreateRequest, logos } from "./domain/logos.ts"
import { PublicKeyCreateRequest, publicKeys } from "./domain/public-keys.ts"
import { mandateTransfers, sealedBankDetails } from "./domain/sealed-records.ts"
import { LogoRepository, MandateTransferRepository, PublicKeyRepository, SealedBankDetailsRepository } from "./repositories.ts"

/** The documents' room: public keys, sealed bank details and mandate transfers, logos. */
export const documentsRoom = defineRoom({
  resources: [publicKeys, sealedBankDetails, mandateTransfers, logos],
  repositories: Layer.mergeAll(
    fromBackend(PublicKeyRepository, publicKeys),
    fromBackend(SealedBankDetailsRepository, sealedBankDetails),
    fromBackend(MandateTransferRepository, mandateTransfers),
    fromBackend(LogoRepository, logos)
  ),
  requestBodies: { logos: { create: LogoCreateRequest }, public_keys: { create: PublicKeyCreateRequest } }
})
