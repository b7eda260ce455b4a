import { Layer } from "effect"
import { defineRoom, store } from "../registry/room.ts"
import { LogoCreateRequest, logos } from "./domain/logos.ts"
import { PublicKeyCreateRequest, publicKeys } from "./domain/public-keys.ts"
import { mandateTransfers, sealedBankDetails } from "./domain/sealed-records.ts"
import { LogoRepository, MandateTransferRepository, PublicKeyRepository, SealedBankDetailsRepository } from "./repositories.ts"
import { EncryptedBankDetails } from "./encrypted-details.ts"
import { Logos } from "./logos.ts"
import { PublicKeys } from "./public-keys.ts"
import { BankDetailsVaultLive } from "./bank-details-vault.ts"

/** The documents' room: public keys, sealed bank details and mandate transfers, logos. */
export const documentsRoom = defineRoom({
  stores: [
    store(PublicKeyRepository, publicKeys),
    store(SealedBankDetailsRepository, sealedBankDetails),
    store(MandateTransferRepository, mandateTransfers),
    store(LogoRepository, logos)
  ],
  requestBodies: { logos: { create: LogoCreateRequest }, public_keys: { create: PublicKeyCreateRequest } },
  services: Layer.mergeAll(Logos.layer, EncryptedBankDetails.layer.pipe(Layer.provideMerge(PublicKeys.layer))),
  ports: BankDetailsVaultLive
})
