// The codec against protocol/vectors: codec.json's frames to accept and refuse, and every
// frame of every recorded session.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { LIMITS, ProtocolError, decodeBody, encodeFrame } from "../pidor_client.js";

const vectors = new URL("../../../protocol/vectors/", import.meta.url);
const load = (name) => JSON.parse(readFileSync(new URL(name, vectors), "utf8"));
const bytes = (hex) => Buffer.from(hex, "hex");

test("the limits are the document's", () => {
  assert.deepEqual({ ...LIMITS }, load("codec.json").limits);
});

test("accepted frames decode to their data, and encode back to it", () => {
  for (const { hex, data } of load("codec.json").accept) {
    assert.deepEqual(decodeBody(bytes(hex).subarray(4)), data);
    assert.deepEqual(decodeBody(encodeFrame(data).subarray(4)), data);
  }
});

test("refused frames give the document's error code", () => {
  for (const { hex, code, why } of load("codec.json").refuse) {
    const frame = bytes(hex);
    const announced = frame.readUInt32BE(0);
    assert.throws(
      () => {
        if (announced > LIMITS.MAX_FRAME) throw new ProtocolError("frame_too_large", "announced");
        decodeBody(frame.subarray(4, 4 + announced));
      },
      (e) => e instanceof ProtocolError && e.code === code,
      why,
    );
  }
});

test("our own frames over the limits are refused before sending", () => {
  assert.throws(() => encodeFrame({ type: "x", s: "я".repeat(40000) }), (e) => e.local && e.code === "frame_too_large");
});

const sessions = readdirSync(vectors).filter((name) => name.endsWith("-session.json")).sort();
for (const name of sessions) {
  test(`every frame of ${name} decodes to its data`, () => {
    const { frames } = load(name);
    for (const { dir, hex, data } of frames) {
      const frame = bytes(hex);
      assert.equal(frame.readUInt32BE(0), frame.length - 4);
      assert.deepEqual(decodeBody(frame.subarray(4)), data, dir);
      if (dir === "c2s") assert.deepEqual(decodeBody(encodeFrame(data).subarray(4)), data);
    }
  });
}
