/**
 * readXmlAsJson: the mapping (attributes, namespaces, CDATA, references, AWS lists), what it
 * refuses (DOCTYPE, malformed, mixed content, too deep, other encodings), a large document, and
 * seeded random and hostile input: never a throw, always undefined or a JSON value.
 */
import { describe, expect, it } from "vitest";
import { createRandom, HOSTILE_PIECES } from "../../../../bench/fuzz-inputs.mjs";
import { MAX_JSON_DEPTH } from "../../../../src/model/json-depth.js";
import { readXmlAsJson } from "../../../../src/runtime/results/xml-json.js";

const EC2 =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">\n' +
  "  <requestId>7a62c49f</requestId>\n" +
  "  <reservationSet>\n" +
  "    <item>\n" +
  "      <reservationId>r-1</reservationId>\n" +
  "      <groupSet/>\n" +
  "      <instancesSet><item><instanceId>i-1</instanceId><tagSet><item><key>a</key><value>b</value></item></tagSet></item></instancesSet>\n" +
  "    </item>\n" +
  "  </reservationSet>\n" +
  "</DescribeInstancesResponse>\n";

describe("readXmlAsJson", () => {
  const reads: Array<{ given: string; name: string; want: unknown }> = [
    {
      name: "an EC2 answer: root dropped, item lists of one are lists, xmlns dropped",
      given: EC2,
      want: {
        requestId: "7a62c49f",
        reservationSet: [
          {
            reservationId: "r-1",
            groupSet: "",
            instancesSet: [{ instanceId: "i-1", tagSet: [{ key: "a", value: "b" }] }],
          },
        ],
      },
    },
    {
      name: "query-protocol member lists of 0, 1 and n",
      given:
        "<ListUsersResponse><ListUsersResult><Users><member><UserName>a</UserName></member></Users>" +
        "<Groups><member>x</member><member>y</member></Groups><Roles></Roles></ListUsersResult></ListUsersResponse>",
      want: { ListUsersResult: { Users: [{ UserName: "a" }], Groups: ["x", "y"], Roles: "" } },
    },
    {
      name: "a root that is a list",
      given: "<items><item>1</item><item>2</item></items>",
      want: ["1", "2"],
    },
    {
      name: "repeated siblings are a list, in first-appearance order of names",
      given: "<r><a>1</a><b>2</b><a>3</a></r>",
      want: { a: ["1", "3"], b: "2" },
    },
    {
      name: "attributes, attributes with text, attributes on a list wrapper keep it an object",
      given: '<r id="7"><p lang=\'en\'>hi</p><e k="v"/><l n="1"><item>x</item></l></r>',
      want: {
        "@id": "7",
        p: { "@lang": "en", "#text": "hi" },
        e: { "@k": "v" },
        l: { "@n": "1", item: "x" },
      },
    },
    {
      name: "namespace declarations dropped, prefixes kept",
      given: '<s:Envelope xmlns:s="urn:s" s:v="1"><s:Body><x:a xmlns:x="urn:x">1</x:a></s:Body></s:Envelope>',
      want: { "@s:v": "1", "s:Body": { "x:a": "1" } },
    },
    {
      name: "CDATA, comments, processing instructions",
      given:
        "<?xml version='1.0'?><!-- c --><?pi x?><r><a><![CDATA[<b>&amp;</b>]]></a><!-- c --><b>x<!-- y -->z</b></r><!-- after -->",
      want: { a: "<b>&amp;</b>", b: "xz" },
    },
    {
      name: "the five entities and numeric references, text kept as written",
      given: "<r><a>&lt;&gt;&amp;&quot;&apos;</a><b>&#65;&#x42;&#x1F600;</b><c>  0012 </c><d>true</d></r>",
      want: { a: "<>&\"'", b: "AB\u{1F600}", c: "  0012 ", d: "true" },
    },
    {
      name: "line ends normalised; attribute white space normalised",
      given: '<r a="x\ty\r\nz"><t>1\r\n2\r3</t></r>',
      want: { "@a": "x y z", t: "1\n2\n3" },
    },
    {
      name: "__proto__ is a key like any other",
      given: "<r><__proto__>x</__proto__></r>",
      want: JSON.parse('{"__proto__":"x"}'),
    },
    { name: "a byte order mark", given: "\ufeff<r>1</r>", want: "1" },
    { name: "an empty root", given: "<r/>", want: "" },
  ];
  it.each(reads)("reads $name", ({ given, want }) => {
    const value = readXmlAsJson(given);
    expect(value).toEqual(want);
    expect(JSON.parse(JSON.stringify(value))).toEqual(want);
  });

  const listed: Array<{ given: string; name: string; want: unknown }> = [
    {
      name: "empty and one-item wrappers of the spec's lists",
      given: "<r><groupSet/><tagSet><item><key>a</key></item></tagSet><Tags>\n<Tag>x</Tag>\n</Tags></r>",
      want: { groupSet: [], tagSet: [{ key: "a" }], Tags: ["x"] },
    },
    {
      name: "unwrapped lists of one and of two (SQS's Message)",
      given:
        "<r><One><Message><Id>1</Id><Body>a</Body></Message></One><Two><Message><Id>1</Id><Body>a</Body></Message><Message><Id>2</Id><Body>b</Body></Message></Two><Url>u</Url></r>",
      want: {
        One: { Message: [{ Id: "1", Body: "a" }] },
        Two: {
          Message: [
            { Id: "1", Body: "a" },
            { Id: "2", Body: "b" },
          ],
        },
        Url: ["u"],
      },
    },
    {
      name: "a listed element with attributes is one item",
      given: '<r><Tags n="1"><Tag>x</Tag></Tags></r>',
      want: { Tags: [{ "@n": "1", Tag: "x" }] },
    },
  ];
  const lists = new Set(["groupSet", "tagSet", "Tags", "Message", "Url"]);
  it.each(listed)("reads $name", ({ given, want }) => {
    expect(readXmlAsJson(given, lists)).toEqual(want);
  });

  it("refuses mixed content in a listed element too", () => {
    expect(readXmlAsJson("<r><Tags>junk<Tag>x</Tag></Tags></r>", lists)).toBeUndefined();
  });

  it("defines __proto__ as an own key, never as the prototype", () => {
    const value = readXmlAsJson("<r><__proto__><polluted>1</polluted></__proto__></r>") as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
  });

  const refused: Array<{ given: string; name: string }> = [
    {
      name: "a DOCTYPE (billion laughs)",
      given: '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><r>&b;</r>',
    },
    { name: "a DOCTYPE without entities", given: "<!DOCTYPE r><r/>" },
    { name: "an undeclared entity", given: "<r>&nbsp;</r>" },
    { name: "a bare ampersand", given: "<r>a & b</r>" },
    { name: "a reference to NUL", given: "<r>&#0;</r>" },
    { name: "a reference to a surrogate", given: "<r>&#xD800;</r>" },
    { name: "a reference past Unicode", given: "<r>&#x110000;</r>" },
    { name: "crossed nesting", given: "<a><b></a></b>" },
    { name: "an unclosed element", given: "<a><b></b>" },
    { name: "a closing tag without its start", given: "</a>" },
    { name: "two roots", given: "<a/><b/>" },
    { name: "text outside the root", given: "x<a/>" },
    { name: "mixed content", given: "<p>Hello <b>world</b>!</p>" },
    { name: "an unclosed comment", given: "<r><!-- x</r>" },
    { name: "an unclosed CDATA", given: "<r><![CDATA[x</r>" },
    { name: "CDATA outside the root", given: "<![CDATA[x]]><r/>" },
    { name: "a duplicate attribute", given: '<r a="1" a="2"/>' },
    { name: "attributes without space between", given: '<r a="1"b="2"/>' },
    { name: "an unquoted attribute", given: "<r a=1/>" },
    { name: "< in an attribute", given: '<r a="<"/>' },
    { name: "a latin-1 declaration", given: '<?xml version="1.0" encoding="ISO-8859-1"?><r/>' },
    { name: "nothing", given: "" },
    { name: "JSON", given: '{"a":1}' },
    { name: "HTML", given: "<!doctype html><html><body><p>x<br></p></body></html>" },
  ];
  it.each(refused)("refuses $name", ({ given }) => {
    expect(readXmlAsJson(given)).toBeUndefined();
  });

  it("reads nesting up to MAX_JSON_DEPTH and refuses deeper (elements or lists)", () => {
    const nest = (levels: number) => `${"<a>".repeat(levels)}x${"</a>".repeat(levels)}`;
    expect(readXmlAsJson(nest(MAX_JSON_DEPTH))).toBeDefined();
    expect(readXmlAsJson(nest(MAX_JSON_DEPTH + 2))).toBeUndefined();
    expect(readXmlAsJson(nest(100_000))).toBeUndefined();
    // Each repeated name adds a list level: the JSON nests twice as deep as the elements.
    const lists = (levels: number) => `${"<b>".repeat(levels)}${"</b><b/>".repeat(levels - 1)}</b>`;
    expect(readXmlAsJson(lists(2))).toEqual({ b: ["", ""] });
    expect(readXmlAsJson(lists(0.4 * MAX_JSON_DEPTH))).toBeDefined();
    expect(readXmlAsJson(lists(0.6 * MAX_JSON_DEPTH))).toBeUndefined();
  });

  it("reads a large generated document exactly", () => {
    const items = Array.from({ length: 20_000 }, (_, n) => ({
      instanceId: `i-${n}`,
      state: { code: String(n % 64), name: n % 2 ? "running" : "stopped & <gone>" },
    }));
    const xml =
      '<?xml version="1.0"?><R xmlns="urn:x"><instancesSet>' +
      items
        .map(
          (i) =>
            `<item><instanceId>${i.instanceId}</instanceId><state><code>${i.state.code}</code><name>${i.state.name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")}</name></state></item>`,
        )
        .join("\n") +
      "</instancesSet></R>";
    expect(xml.length).toBeGreaterThan(1_500_000);
    expect(readXmlAsJson(xml)).toEqual({ instancesSet: items });
  });

  it("never throws on random and hostile input: undefined or a JSON value", () => {
    const random = createRandom(29);
    const fuzzLists = new Set(["a", "b", "item", "__proto__"]);
    const pieces = [
      ...HOSTILE_PIECES,
      "<",
      ">",
      "</",
      "/>",
      "<a>",
      "</a>",
      "<item>",
      "</item>",
      '<b x="1">',
      "</b>",
      "<!--",
      "-->",
      "<![CDATA[",
      "]]>",
      "<?xml ",
      "?>",
      "<!DOCTYPE",
      "&amp;",
      "&#",
      "&#x",
      ";",
      "=",
      "__proto__",
      "xmlns:",
    ];
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(random() * 40);
      const body = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join("");
      // Half the inputs inside a root, so they get past the first tag.
      const text = n % 2 === 0 ? body : `<r>${body}</r>`;
      // Every third with list names, so the list rules meet the same input.
      const value = readXmlAsJson(text, n % 3 === 0 ? fuzzLists : undefined);
      if (value !== undefined) expect(JSON.parse(JSON.stringify(value)), JSON.stringify(text)).toEqual(value);
    }
  });
});
