package main

// upstreamModule is the module path of the template this repository was
// cloned from. rename never rewrites it (it leaves cmd/starter's own text
// alone), so it keeps naming the template after the first rename:
// lines that link to the template's repository stay as they are, and the
// template's own tests of the starter (tests/workflow) read it to know
// whether they still run in the template.
const upstreamModule = "github.com/asapjs/fiber-template"

// upstreamURL is the address of the template's repository, as the
// README's clone line and other links spell it.
const upstreamURL = "https://" + upstreamModule
