// Renders cases with the web app's text bundle (service/risk_service/web/text.js, built from
// clients/node/src/text.ts by clients/node/scripts/gen-text.sh): a JSON array of
// {variant, section, message, names, maxCount} on stdin, a JSON array of sentences on stdout.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const { Renderer } = await import(pathToFileURL(process.argv[2]).href);
const renderer = new Renderer("en");
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map((c) => (c.section === "actions"
  ? renderer.action(c.message, c.variant, c.names, c.maxCount || 0)
  : renderer.event(c.message, c.variant, c.names)));
process.stdout.write(JSON.stringify(out));
