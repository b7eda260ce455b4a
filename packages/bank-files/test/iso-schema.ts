import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { validateXML } from "xmllint-wasm"

/**
 * The ISO 20022 schema of pain.008.001.02, the independent reader every written pain.008 is
 * checked by (through libxml2's xmllint, compiled to WebAssembly). The schema is not part of the
 * repository: it is read from the shared oracle beside the checkout (`../shared/oracle/...` from
 * the repository's root, or from a folder above it for a worktree). A fresh clone has none, and
 * the check is then skipped, saying so.
 */

const RELATIVE = "shared/oracle/iso20022/pain.008.001.02.xsd"
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

const find = (): string | undefined => {
  for (let dir = dirname(repositoryRoot); ; dir = dirname(dir)) {
    const candidate = join(dir, RELATIVE)
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

export const PAIN_008_XSD_PATH = find()

/** Why the schema check is skipped, when it is. */
export const PAIN_008_XSD_ABSENT = `skipped: ../${RELATIVE} is absent (a fresh clone has no shared oracle)`

const schema = PAIN_008_XSD_PATH === undefined ? undefined : readFileSync(PAIN_008_XSD_PATH, "utf8")

/** xmllint's complaints about `xml` against the pain.008 schema: none when valid. */
export const pain008SchemaErrors = async (xml: string): Promise<ReadonlyArray<string>> => {
  if (schema === undefined) throw new Error(PAIN_008_XSD_ABSENT)
  const result = await validateXML({
    xml: { fileName: "pain.008.xml", contents: xml },
    schema: { fileName: "pain.008.001.02.xsd", contents: schema },
    // A 100,000-collection file is about 70 MB of XML.
    maxMemoryPages: 16 * 1024
  })
  return result.valid ? [] : result.errors.map((e) => e.rawMessage)
}
