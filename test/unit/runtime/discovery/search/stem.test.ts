/** The Porter stemmer against the examples of Porter's paper (each word through all five steps). */
import { describe, expect, it } from "vitest";
import { stem } from "../../../../../src/runtime/discovery/search/stem.js";

describe("stem", () => {
  it.each([
    // step 1
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["ties", "ti"],
    ["caress", "caress"],
    ["cats", "cat"],
    ["feed", "feed"],
    ["agreed", "agre"],
    ["plastered", "plaster"],
    ["bled", "bled"],
    ["motoring", "motor"],
    ["sing", "sing"],
    ["conflated", "conflat"],
    ["troubled", "troubl"],
    ["sized", "size"],
    ["hopping", "hop"],
    ["tanned", "tan"],
    ["falling", "fall"],
    ["hissing", "hiss"],
    ["fizzed", "fizz"],
    ["failing", "fail"],
    ["filing", "file"],
    ["happy", "happi"],
    ["sky", "sky"],
    // step 2
    ["relational", "relat"],
    ["conditional", "condit"],
    ["rational", "ration"],
    ["valenci", "valenc"],
    ["digitizer", "digit"],
    ["conformabli", "conform"],
    ["radicalli", "radic"],
    ["differentli", "differ"],
    ["vileli", "vile"],
    ["analogousli", "analog"],
    ["vietnamization", "vietnam"],
    ["predication", "predic"],
    ["operator", "oper"],
    ["feudalism", "feudal"],
    ["decisiveness", "decis"],
    ["hopefulness", "hope"],
    ["callousness", "callous"],
    ["formaliti", "formal"],
    ["sensitiviti", "sensit"],
    ["sensibiliti", "sensibl"],
    // step 3
    ["triplicate", "triplic"],
    ["formative", "form"],
    ["formalize", "formal"],
    ["electriciti", "electr"],
    ["electrical", "electr"],
    ["hopeful", "hope"],
    ["goodness", "good"],
    // step 4
    ["revival", "reviv"],
    ["allowance", "allow"],
    ["inference", "infer"],
    ["airliner", "airlin"],
    ["gyroscopic", "gyroscop"],
    ["adjustable", "adjust"],
    ["defensible", "defens"],
    ["irritant", "irrit"],
    ["replacement", "replac"],
    ["adjustment", "adjust"],
    ["dependent", "depend"],
    ["adoption", "adopt"],
    ["communism", "commun"],
    ["activate", "activ"],
    ["angulariti", "angular"],
    ["homologous", "homolog"],
    ["effective", "effect"],
    ["bowdlerize", "bowdler"],
    // step 5
    ["probate", "probat"],
    ["rate", "rate"],
    ["cease", "ceas"],
    ["controll", "control"],
    ["roll", "roll"],
  ])("%s → %s", (word, want) => {
    expect(stem(word)).toBe(want);
  });

  it.each([
    ["users", "user"],
    ["messages", "message"],
    ["created", "creating"],
    ["holidays", "holiday"],
    ["repositories", "repository"],
    ["searches", "search"],
  ])("%s and %s meet", (a, b) => {
    expect(stem(a)).toBe(stem(b));
  });

  it.each(["id", "v2", "oauth2", "café", "s3"])("%s stays as it is", (word) => {
    expect(stem(word)).toBe(word);
  });
});
