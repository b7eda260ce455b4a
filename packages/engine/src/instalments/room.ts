import { defineRoom, store } from "../registry/room.ts"
import {
  InstalmentScheduleCreateRequest,
  InstalmentScheduleCreateWithDatesRequest,
  InstalmentScheduleCreateWithScheduleRequest,
  instalmentSchedules,
  InstalmentScheduleUpdateRequest
} from "./domain/instalment-schedules.ts"
import { instalmentDueWork } from "./jobs.ts"
import { InstalmentScheduleRepository } from "./repositories.ts"
import { InstalmentSchedules } from "./instalment-schedules.ts"

/** The instalments' room: schedules of payments of fixed amounts and dates. */
export const instalmentsRoom = defineRoom({
  stores: [store(InstalmentScheduleRepository, instalmentSchedules)],
  requestBodies: {
    instalment_schedules: {
      create: InstalmentScheduleCreateRequest,
      create_with_dates: InstalmentScheduleCreateWithDatesRequest,
      create_with_schedule: InstalmentScheduleCreateWithScheduleRequest,
      update: InstalmentScheduleUpdateRequest
    }
  },
  dueWork: instalmentDueWork,
  services: InstalmentSchedules.layer
})
