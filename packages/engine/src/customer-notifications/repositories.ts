import { repositoryService } from "../kernel/repository-service.ts"
import { customerNotifications } from "./domain/customer-notifications.ts"

/** The repository of customer notifications, keyed `@paykit/engine/<name>`. */
export class CustomerNotificationRepository extends repositoryService<CustomerNotificationRepository>()("CustomerNotificationRepository", customerNotifications) {}
