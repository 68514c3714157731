import assert from "node:assert/strict";
import { test } from "node:test";
import { doneNoteWords, doneReplyWords } from "../../../src/bot/views/power/done-words.ts";
import { translator } from "../../../src/messages/translator.ts";

const ZH = translator({ language: "zh-CN", timeZone: "Asia/Shanghai", currency: "CNY" });
const EN = translator({ language: "en", timeZone: "Asia/Shanghai", currency: "CNY" });
const others = { people: ["U0EVE"], logins: ["svc-train"], unknownProcesses: false };

test("Done with mine in the thread and to its presser, in English and Chinese", () => {
  const note = { kind: "done-with-mine", host: "gpu-b", user: "U0ALICE", others } as const;
  assert.equal(
    doneNoteWords(EN, note),
    "<@U0ALICE> is done with their work on gpu-b. It stops once the bot hears the same from <@U0EVE> and the login `svc-train`.",
  );
  assert.equal(
    doneNoteWords(ZH, note),
    "<@U0ALICE> 在 gpu-b 上的工作已用完。等 <@U0EVE>和登录名 `svc-train` 也这样表示后，它就会停机。",
  );
  const unknown = { kind: "noted", host: "gpu-b", others: { ...others, unknownProcesses: true } } as const;
  assert.equal(
    doneReplyWords(EN, unknown),
    "Noted: your work on gpu-b may go. A GPU process of unknown owner is on it too, so it does not stop on this.",
  );
  assert.equal(
    doneReplyWords(ZH, { kind: "done-refused", reason: "no-alert", host: "gpu-b" }),
    "gpu-b 的提醒已关闭：没有可以表示用完的对象。",
  );
});
