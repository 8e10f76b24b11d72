/**
 * The two rounds of a confirmation on the 2026-07-28 wire, without a transport: the signed
 * state (what it binds, expiry on a moved clock, one use per answer) and the confirm hook of a
 * round (asks, believes only a state for this very call and a ticked box).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfirmationInvalid, ConfirmationPending } from "../../../../src/runtime/access/confirm.js";
import { createMemoryTokenStore } from "../../../../src/runtime/auth/user-login/token-store.js";
import { startConfirmRound, toConfirmationRequest } from "../../../../src/runtime/server/confirm-rounds.js";
import {
  CONFIRM_STATE_TTL_SECONDS,
  type ConfirmStates,
  createConfirmStates,
  digestArguments,
  type VerifiedState,
} from "../../../../src/runtime/server/confirm-state.js";

// The codec reads no context when it binds none.
const ctx = {} as Parameters<ConfirmStates["verify"]>[1];
const ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

afterEach(() => {
  vi.useRealTimers();
});

describe("confirm states", () => {
  it("bind the tool and a digest of the arguments that does not depend on key order", async () => {
    const states = createConfirmStates();
    const verified = await states.verify(
      await states.mint("deletePet", { b: 1, a: [2, { d: 3, c: 4 }] }),
      ctx,
    );
    expect(verified).toMatchObject({ payload: { tool: "deletePet" } });
    const { payload } = verified as { payload: { args: string; nonce: string } };
    expect(payload.args).toBe(digestArguments({ a: [2, { c: 4, d: 3 }], b: 1 }));
    expect(payload.args).not.toBe(digestArguments({ a: [2, { c: 4, d: 3 }], b: 2 }));
    // The full sha256: a shortened digest would let chosen arguments collide.
    expect(payload.args).toMatch(/^sha256:[\w-]{43}$/);
    expect(payload.nonce).not.toBe("");
  });

  it("refuse a state signed with another key, or changed, or not a state at all", async () => {
    const states = createConfirmStates({ key: "k".repeat(32) });
    const state = await states.mint("deletePet", { id: 1 });
    expect(await createConfirmStates({ key: "k".repeat(32) }).verify(state, ctx)).toHaveProperty("payload");
    expect(await createConfirmStates({ key: "j".repeat(32) }).verify(state, ctx)).toEqual({
      refused: "altered",
    });
    const [prefix, body, mac] = state.split(".") as [string, string, string];
    const envelope = JSON.parse(Buffer.from(body, "base64url").toString()) as { p: { tool: string } };
    envelope.p.tool = "getPet";
    const changed = `${prefix}.${Buffer.from(JSON.stringify(envelope)).toString("base64url")}.${mac}`;
    expect(await states.verify(changed, ctx)).toEqual({ refused: "altered" });
    expect(await states.verify("nothing", ctx)).toEqual({ refused: "malformed" });
  });

  it("refuse a state answered after it expired", async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-08-01T10:00:00Z"));
    const states = createConfirmStates();
    const state = await states.mint("deletePet", {});
    vi.setSystemTime(new Date(Date.now() + (CONFIRM_STATE_TTL_SECONDS - 1) * 1000));
    expect(await states.verify(state, ctx)).toHaveProperty("payload");
    vi.setSystemTime(new Date(Date.now() + 2_000));
    expect(await states.verify(state, ctx)).toEqual({ refused: "expired" });
  });

  it("are spent once", async () => {
    const states = createConfirmStates();
    const verified = (await states.verify(await states.mint("deletePet", {}), ctx)) as {
      payload: Parameters<ConfirmStates["spend"]>[0];
    };
    expect(await states.spend(verified.payload)).toBe(true);
    expect(await states.spend(verified.payload)).toBe(false);
  });

  it("are spent once across replicas that share the marks' store, and per process without one", async () => {
    const key = "k".repeat(32);
    const shared = createMemoryTokenStore();
    const first = createConfirmStates({ key, marks: shared });
    const second = createConfirmStates({ key, marks: shared });
    const alone = createConfirmStates({ key });
    const state = await first.mint("deletePet", { id: 1 });
    const payloadOf = async (states: ConfirmStates) =>
      ((await states.verify(state, ctx)) as { payload: Parameters<ConfirmStates["spend"]>[0] }).payload;
    expect(await first.spend(await payloadOf(first))).toBe(true);
    // The same answer replayed to another replica: refused there too.
    expect(await second.spend(await payloadOf(second))).toBe(false);
    // A replica with marks of its own does not know the first one spent it.
    expect(await alone.spend(await payloadOf(alone))).toBe(true);
  });

  it("refuse a key shorter than 32 bytes", () => {
    expect(() => createConfirmStates({ key: "short" })).toThrow(RangeError);
  });
});

describe("a confirmation round", () => {
  async function retried(
    states: ConfirmStates,
    asked: { tool: string; args: unknown },
    call: { tool: string; args: unknown },
    responses: Record<string, unknown> | undefined,
  ) {
    const request = await toConfirmationRequest(states, asked.tool, asked.args, "Allow it?");
    const state: VerifiedState = await states.verify(request.requestState ?? "", ctx);
    return startConfirmRound({ states, ...call, state, responses });
  }

  it("asks on the first round, with the form 2025-era clients get", async () => {
    const states = createConfirmStates();
    const round = startConfirmRound({
      states,
      tool: "deletePet",
      args: { id: 1 },
      state: undefined,
      responses: ACCEPT,
    });
    // An answer without a question's state is no answer: the user is asked.
    await expect(round.confirm("Allow deletePet?")).rejects.toBeInstanceOf(ConfirmationPending);
    expect(round.asked()).toBe("Allow deletePet?");
    const request = await toConfirmationRequest(states, "deletePet", { id: 1 }, "Allow deletePet?");
    expect(request.resultType).toBe("input_required");
    expect(request.inputRequests?.["confirm"]).toMatchObject({
      method: "elicitation/create",
      params: { mode: "form", message: "Allow deletePet?", requestedSchema: { required: ["confirm"] } },
    });
  });

  it("accepts the ticked box for the call it was asked about, once", async () => {
    const states = createConfirmStates();
    const call = { tool: "deletePet", args: { id: 1 } };
    const round = await retried(states, call, call, ACCEPT);
    await expect(round.confirm("Allow it?")).resolves.toBe(true);
    expect(round.asked()).toBeUndefined();
    await expect(round.confirm("Allow it?")).rejects.toThrow(/already used/);
  });

  it("refuses, and runs nothing, when the shared marks' store cannot be asked", async () => {
    const down = {
      claim: async () => {
        throw new Error("the token store at redis://127.0.0.1:1/ closed the connection");
      },
    };
    const states = createConfirmStates({ marks: down });
    const call = { tool: "deletePet", args: { id: 1 } };
    const round = await retried(states, call, call, ACCEPT);
    await expect(round.confirm("Allow it?")).rejects.toThrow(
      /could not check that this confirmation is unused \(the token store at redis:.*closed the connection\)/,
    );
  });

  it.each([
    ["declined", { confirm: { action: "decline" } }],
    ["cancelled", { confirm: { action: "cancel" } }],
    ["accepted unticked", { confirm: { action: "accept", content: { confirm: false } } }],
    ["accepted with a string", { confirm: { action: "accept", content: { confirm: "true" } } }],
  ])("is not allowed when the answer is %s", async (_how, responses) => {
    const states = createConfirmStates();
    const call = { tool: "deletePet", args: { id: 1 } };
    await expect((await retried(states, call, call, responses)).confirm("Allow it?")).resolves.toBe(false);
  });

  it.each([
    ["no answer", undefined],
    ["an answer of another kind", { confirm: { roots: [] } }],
  ])("asks again when the retry brings the state but %s", async (_what, responses) => {
    const states = createConfirmStates();
    const call = { tool: "deletePet", args: { id: 1 } };
    const round = await retried(states, call, call, responses);
    await expect(round.confirm("Allow it?")).rejects.toBeInstanceOf(ConfirmationPending);
    expect(round.asked()).toBe("Allow it?");
  });

  it.each([
    ["other arguments", { tool: "deletePet", args: { id: 2 } }],
    ["another tool", { tool: "deleteUser", args: { id: 1 } }],
  ])("refuses a state asked for %s", async (_what, call) => {
    const states = createConfirmStates();
    const round = await retried(states, { tool: "deletePet", args: { id: 1 } }, call, ACCEPT);
    const refusal = await round.confirm("Allow it?").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfirmationInvalid);
    expect((refusal as Error).message).toContain("asked for another call");
  });

  it.each([
    ["another user", "alice", "mallory"],
    ["no signed-in user", "alice", undefined],
    ["a signed-in user, asked of no one", undefined, "mallory"],
  ])("refuses a state asked of %s", async (_who, askedOf, answeredBy) => {
    const states = createConfirmStates();
    const call = { tool: "deletePet", args: { id: 1 } };
    const request = await toConfirmationRequest(states, call.tool, call.args, "Allow it?", askedOf);
    const state = await states.verify(request.requestState ?? "", ctx);
    const round = startConfirmRound({ states, ...call, subject: answeredBy, state, responses: ACCEPT });
    await expect(round.confirm("Allow it?")).rejects.toThrow(/asked of another user/);
  });

  it("accepts the answer of the user it was asked of, and keeps the subject out of the state", async () => {
    const states = createConfirmStates();
    const call = { tool: "deletePet", args: { id: 1 } };
    const request = await toConfirmationRequest(
      states,
      call.tool,
      call.args,
      "Allow it?",
      "alice@example.com",
    );
    expect(
      Buffer.from((request.requestState ?? "").split(".")[1] ?? "", "base64url").toString(),
    ).not.toContain("alice");
    const state = await states.verify(request.requestState ?? "", ctx);
    const round = startConfirmRound({
      states,
      ...call,
      subject: "alice@example.com",
      state,
      responses: ACCEPT,
    });
    await expect(round.confirm("Allow it?")).resolves.toBe(true);
  });

  it("refuses a state the verify hook refused, saying why", async () => {
    const states = createConfirmStates();
    const round = startConfirmRound({
      states,
      tool: "deletePet",
      args: {},
      state: { refused: "expired" },
      responses: ACCEPT,
    });
    await expect(round.confirm("Allow it?")).rejects.toThrow(/more than 10 minutes after it was asked/);
  });
});
