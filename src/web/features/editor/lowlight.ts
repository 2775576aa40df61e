/**
 * Syntax colours for code blocks: lowlight with a handful of languages, registered by hand
 * (`common` would add ~51 KB to the editor, `all` ~295 KB).
 */
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { createLowlight } from "lowlight";

export const LANGUAGES: Array<[string, string]> = [
  ["", "Plain text"],
  ["bash", "Shell"],
  ["css", "CSS"],
  ["go", "Go"],
  ["xml", "HTML / XML"],
  ["javascript", "JavaScript"],
  ["json", "JSON"],
  ["markdown", "Markdown"],
  ["python", "Python"],
  ["rust", "Rust"],
  ["sql", "SQL"],
  ["typescript", "TypeScript"],
  ["yaml", "YAML"],
];

export const lowlight = createLowlight({ bash, css, go, javascript, json, markdown, python, rust, sql, typescript, xml, yaml });
