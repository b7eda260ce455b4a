import { defineRoom } from "../registry/room.ts"
import { Institutions } from "./institutions.ts"

/** The institutions' room: nothing stored (the banks are a dataset), its one service. */
export const institutionsRoom = defineRoom({
  services: Institutions.layer
})
