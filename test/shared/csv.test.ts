import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toCsv } from "../../src/shared/csv.ts";

describe("toCsv", () => {
  test("RFC 4180: a header, CRLF after every record, quotes only where needed, doubled inside", () => {
    assert.equal(
      toCsv(["host", "note"], [["gpu-a", 'said "hi", then left']]),
      'host,note\r\ngpu-a,"said ""hi"", then left"\r\n',
    );
    assert.equal(toCsv(["a"], []), "a\r\n", "a header alone");
  });

  test("line breaks of any kind are quoted", () => {
    assert.equal(toCsv(["a", "b", "c"], [["x\ny", "x\r\ny", "x\ry"]]), 'a,b,c\r\n"x\ny","x\r\ny","x\ry"\r\n');
  });

  test("unknowns are empty; booleans yes/no; numbers plain", () => {
    assert.equal(
      toCsv(
        ["a", "b", "c", "d", "e", "f"],
        [[null, Number.NaN, Number.POSITIVE_INFINITY, true, false, 1234.5]],
      ),
      "a,b,c,d,e,f\r\n,,,yes,no,1234.5\r\n",
    );
  });

  test("text a spreadsheet would run as a formula is defused; numbers are not", () => {
    assert.equal(
      toCsv(["a", "b", "c", "d", "e"], [["=SUM(A1)", "@cmd", "+1+2", "-0.25", -3]]),
      "a,b,c,d,e\r\n'=SUM(A1),'@cmd,'+1+2,-0.25,-3\r\n",
    );
  });
});
