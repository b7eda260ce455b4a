import { Effect, Option, Stream } from "effect"
import type { StorageError } from "@paykit/core"
import type { ListQuery } from "../kernel/ports/list-query.ts"
import type { Repository, Versioned } from "../kernel/ports/repository.ts"
import { repositoryService } from "../kernel/repository-service.ts"
import { bankSubmissions } from "./domain/bank-submissions.ts"
import { bankBatches, bankFileChunks, bankItems } from "./domain/bank-items.ts"

/** The bank submissions' repositories, keyed `@paykit/engine/<name>`. */
export class BankSubmissionRepository extends repositoryService<BankSubmissionRepository>()("BankSubmissionRepository", bankSubmissions) {}
export class BankItemRepository extends repositoryService<BankItemRepository>()("BankItemRepository", bankItems) {}
export class BankBatchRepository extends repositoryService<BankBatchRepository>()("BankBatchRepository", bankBatches) {}
export class BankFileChunkRepository extends repositoryService<BankFileChunkRepository>()("BankFileChunkRepository", bankFileChunks) {}

/** The stores of the bank submissions' room. */
export interface BankStores {
  readonly submissions: BankSubmissionRepository["Service"]
  readonly items: BankItemRepository["Service"]
  readonly batches: BankBatchRepository["Service"]
  readonly chunks: BankFileChunkRepository["Service"]
}

/** The stores of the bank submissions' room, taken from the context once. */
export const bankStores = Effect.gen(function*() {
  const stores: BankStores = {
    submissions: yield* BankSubmissionRepository,
    items: yield* BankItemRepository,
    batches: yield* BankBatchRepository,
    chunks: yield* BankFileChunkRepository
  }
  return stores
})

/** The rows `filters` match, oldest first, a page of `limit` at a time: what is handed to a bank is read so, in bounded memory. */
export const scanPages = <A extends { readonly id: string; readonly created_at: string }, K extends string>(repository: Repository<A, K>, organisation: string, filters: ListQuery<K>["filters"], limit: number) =>
  Stream.paginate<string | undefined, ReadonlyArray<Versioned<A>>, StorageError>(undefined, (after) =>
    Effect.map(repository.scan(organisation, filters, after === undefined ? { limit } : { after, limit }), (rows) => {
      const last = rows[rows.length - 1]
      return [rows.length === 0 ? [] : [rows], rows.length < limit || last === undefined ? Option.none() : Option.some(last.resource.id)] as const
    }))
