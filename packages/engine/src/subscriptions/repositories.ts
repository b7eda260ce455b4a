import { repositoryService } from "../kernel/repository-service.ts"
import { subscriptionSchedules, subscriptions } from "./domain/subscriptions.ts"

/** The repositories of the subscriptions and their schedule records, keyed `@paykit/engine/<name>`. */
export class SubscriptionRepository extends repositoryService<SubscriptionRepository>()("SubscriptionRepository", subscriptions) {}
export class SubscriptionScheduleRepository extends repositoryService<SubscriptionScheduleRepository>()("SubscriptionScheduleRepository", subscriptionSchedules) {}
