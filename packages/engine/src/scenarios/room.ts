import { defineRoom } from "../registry/room.ts"
import { ScenarioSimulators } from "./scenario-simulators.ts"

/** The scenarios' room: nothing stored, the simulators built on every room below. */
export const scenariosRoom = defineRoom({
  services: ScenarioSimulators.layer
})
