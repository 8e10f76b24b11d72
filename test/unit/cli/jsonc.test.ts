/**
 * The JSONC reader and editor install uses on client configuration files (VS Code's mcp.json is
 * JSONC): every valid JSONC reads as JSON.parse reads the same text without its comments and
 * trailing commas (issue 24: a trailing comma followed by a `//` comment was refused), and an
 * edit changes only the member it names, every comment and line elsewhere kept.
 */
import { describe, expect, it } from "vitest";
import { JsoncSyntaxError, parseJsonc, setJsoncMember } from "../../../src/cli/install/jsonc.js";

describe("parseJsonc", () => {
  it.each([
    { name: "trailing comma then a line comment", text: '{\n  "a": 1, // note\n}', want: { a: 1 } },
    { name: "trailing comma then a block comment", text: '{ "a": 1, /* note */ }', want: { a: 1 } },
    {
      name: "comment between value and comma",
      text: '{ "a": 1 /* x */ , "b": [2, // y\n 3,\n] }',
      want: { a: 1, b: [2, 3] },
    },
    {
      name: "comments everywhere",
      text: '/* head */ { // a\n "a" /* k */ : /* v */ "x" // end\n} // tail',
      want: { a: "x" },
    },
    {
      name: "comment-like text in strings",
      text: '{ "url": "http://x/*y*/", "c": "// not a comment" }',
      want: { url: "http://x/*y*/", c: "// not a comment" },
    },
    {
      name: "escaped quote in a string",
      text: '{ "a": "say \\"hi\\" // still string", }',
      want: { a: 'say "hi" // still string' },
    },
    { name: "nested trailing commas", text: '{ "a": { "b": [1, 2,], }, }', want: { a: { b: [1, 2] } } },
    { name: "a comment without a final line break", text: '{ "a": null }\n// last', want: { a: null } },
    { name: "CRLF line ends", text: '{\r\n  "a": true, // x\r\n}\r\n', want: { a: true } },
    {
      name: "__proto__ as an own key",
      text: '{ "__proto__": { "x": 1 } }',
      want: JSON.parse('{ "__proto__": { "x": 1 } }'),
    },
  ])("reads $name", ({ text, want }) => {
    expect(parseJsonc(text).value).toEqual(want);
  });

  it.each([
    { name: "two commas", text: '{ "a": 1,, }' },
    { name: "a leading comma", text: "[, 1]" },
    { name: "an unterminated block comment", text: '{ "a": 1 /* }' },
    { name: "a missing comma", text: '{ "a": 1 "b": 2 }' },
    { name: "a single-quoted string", text: "{ 'a': 1 }" },
    { name: "text after the value", text: "{} x" },
  ])("refuses $name", ({ text }) => {
    expect(() => parseJsonc(text)).toThrow(JsoncSyntaxError);
  });

  it("relaxed: false reads plain JSON only", () => {
    expect(() => parseJsonc('{ "a": 1, }', { relaxed: false })).toThrow(JsoncSyntaxError);
    expect(() => parseJsonc('{ "a": 1 } // x', { relaxed: false })).toThrow(JsoncSyntaxError);
    expect(parseJsonc('{ "a": [1, {"b": "c"}] }', { relaxed: false }).value).toEqual({ a: [1, { b: "c" }] });
  });
});

describe("setJsoncMember", () => {
  const VSCODE = [
    "{",
    "  // my servers",
    '  "servers": {',
    '    "a": { "command": "x" }, // the first',
    "  },",
    "}",
    "",
  ].join("\n");

  it.each([
    {
      name: "adds after a trailing comma and a comment, keeping both",
      text: VSCODE,
      path: ["servers", "b"],
      value: { command: "y" },
      want: [
        "{",
        "  // my servers",
        '  "servers": {',
        '    "a": { "command": "x" }, // the first',
        '    "b": {',
        '      "command": "y"',
        "    },",
        "  },",
        "}",
        "",
      ].join("\n"),
    },
    {
      name: "adds after a last member without a comma",
      text: '{\n  "servers": {\n    "a": 1 // one\n  }\n}\n',
      path: ["servers", "b"],
      value: 2,
      want: '{\n  "servers": {\n    "a": 1, // one\n    "b": 2\n  }\n}\n',
    },
    {
      name: "replaces only the value",
      text: VSCODE,
      path: ["servers", "a"],
      value: { command: "z" },
      want: VSCODE.replace('{ "command": "x" }', '{\n      "command": "z"\n    }'),
    },
    {
      name: "creates a missing object with the file's indent",
      text: '{\n\t"other": true // keep\n}',
      path: ["servers", "b"],
      value: 1,
      want: '{\n\t"other": true, // keep\n\t"servers": {\n\t\t"b": 1\n\t}\n}',
    },
    {
      name: "fills an empty object",
      text: '{\n  "servers": {}\n}',
      path: ["servers", "b"],
      value: 1,
      want: '{\n  "servers": {\n    "b": 1\n  }\n}',
    },
    {
      name: "appends to an inline array",
      text: '{ "inputs": [ { "id": "a" } ] }',
      path: ["inputs", 1],
      value: { id: "b" },
      want: '{ "inputs": [ { "id": "a" }, {"id":"b"} ] }',
    },
    {
      name: "removes a member with its line and comment, keeping the others",
      text: VSCODE,
      path: ["servers", "a"],
      value: undefined,
      want: ["{", "  // my servers", '  "servers": {', "  },", "}", ""].join("\n"),
    },
    {
      name: "removes the last member and the comma before it",
      text: '{\n  "a": 1, // one\n  "b": 2\n}',
      path: ["b"],
      value: undefined,
      want: '{\n  "a": 1 // one\n}',
    },
    {
      name: "removes a middle item of an inline array",
      text: "[1, 2, 3]",
      path: [1],
      value: undefined,
      want: "[1, 3]",
    },
  ])("$name", ({ text, path, value, want }) => {
    const edited = setJsoncMember(text, path, value);
    expect(edited).toBe(want);
    parseJsonc(edited); // still JSONC
  });

  it("adding then removing a member gives the file back byte for byte", () => {
    const added = setJsoncMember(VSCODE, ["servers", "b"], { command: "y", args: ["--a"] });
    expect(setJsoncMember(added, ["servers", "b"], undefined)).toBe(VSCODE);
  });

  it("edits of a plain JSON file stay plain JSON", () => {
    const text = '{\n  "mcpServers": {\n    "a": {}\n  }\n}\n';
    const added = setJsoncMember(text, ["mcpServers", "b"], { x: 1 });
    expect(JSON.parse(added)).toEqual({ mcpServers: { a: {}, b: { x: 1 } } });
    expect(JSON.parse(setJsoncMember(added, ["mcpServers", "b"], undefined))).toEqual({
      mcpServers: { a: {} },
    });
    expect(setJsoncMember(added, ["mcpServers", "b"], undefined)).toBe(text);
  });
});
