import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stringify } from "csv-stringify/sync";
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

  test("records joined directly or through csv-stringify: the same text as csv-stringify alone", () => {
    const cells = ["", "a b", "-", "'", "ü 中", "-1", "=1", "a,b", 'q"x', "l\nx", "c\rx", 0, -0, 1e21, 1e-7];
    const more = [Number.NaN, Number.NEGATIVE_INFINITY, true, false, null];
    const all = [...cells, ...more];
    const rows = all.flatMap((a) => all.map((b) => [a, b]));
    const reference = stringify([["a", "b"], ...rows] as never, {
      record_delimiter: "windows",
      quoted_match: /[\r\n]/,
      cast: {
        boolean: (value: boolean) => (value ? "yes" : "no"),
        number: (value: number) => (Number.isFinite(value) ? String(value) : ""),
        string: (value: string) =>
          /^[=+\-@\t\r]/.test(value) && !/^-?\d+(?:\.\d+)?$/.test(value) ? `'${value}` : value,
      },
    });
    assert.equal(toCsv(["a", "b"], rows), reference);
    assert.equal(toCsv(["a", "b"], [["-1", "-"]]), "a,b\r\n-1,'-\r\n");
  });

  test("a large table, its rows made as they are written, is the same text record for record", () => {
    function* rows() {
      for (let i = 0; i < 2_345; i++) yield [`gpu-${i}`, i % 7 === 0 ? null : i / 4, i % 2 === 0, `=${i}`];
    }
    const text = toCsv(["host", "value", "on", "note"], rows());
    const lines = text.split("\r\n");
    assert.equal(lines.length, 2 + 2_345, "a header, every row, and the last record's CRLF");
    assert.equal(lines[0], "host,value,on,note");
    assert.equal(lines[1], "gpu-0,,yes,'=0");
    assert.equal(lines[1_001], "gpu-1000,250,yes,'=1000", "the first row of the second thousand");
    assert.equal(lines[2_345], "gpu-2344,586,yes,'=2344");
    assert.equal(lines[2_346], "");
  });
});
