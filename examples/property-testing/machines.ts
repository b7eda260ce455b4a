import fc from "fast-check"
import { paymentMachine } from "@paykit/machines"
import { CASES, caseOf, eventPathArb } from "@paykit/machines/testing"

// Every machine: each move starts where the previous one ended, and nothing leaves a terminal state.
for (const machineCase of CASES) {
  const { machine } = machineCase
  fc.assert(fc.property(eventPathArb(machineCase), ({ initial, entries }) =>
    entries.every((entry, i) => entry.from === (i === 0 ? initial : entries[i - 1]?.to) && !machine.terminal.includes(entry.from))))
}

// One machine's rule: a payment is paid out only once it was confirmed.
fc.assert(fc.property(eventPathArb(caseOf(paymentMachine), 30), ({ initial, entries }) => {
  const visited = [initial, ...entries.map((entry) => entry.to)]
  const paidOut = visited.indexOf("paid_out")
  return paidOut === -1 || visited.slice(0, paidOut).includes("confirmed")
}))

console.log(`machine properties held for ${CASES.length} machines`)
