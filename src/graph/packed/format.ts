/**
 * A compact text encoding of JSON-like values (what JSON.stringify keeps: objects, arrays,
 * strings, finite numbers, booleans, null), for data stored in bulk and read back often: every
 * distinct string once (a table, as JSON), every object's keys once per distinct key list (a
 * shape), the rest a stream of small integers written 6 bits to an ASCII character. Any value can
 * be read on its own, by its offset in the stream (`Packer.offset()` before adding it), so a
 * reader decodes the parts it needs and leaves the rest as text. Decoding builds each object with
 * a function made for its shape (an object literal: V8 gives objects of one shape one hidden
 * class, as JSON.parse does), and equal strings are one string.
 *
 * `PackedReader.at(offset)` deep-equals `JSON.parse(JSON.stringify(v))` for the value `v` added
 * there, for any value JSON accepts (undefined properties left out, non-finite numbers as null,
 * key order kept, toJSON applied).
 *
 * Layout: `P1 <length of the table's JSON>\n<table JSON><shapes><values>`. The shapes are a count,
 * then per shape its key count and key string indexes. A value is one integer
 * `payload * 8 + tag`, then what the tag says follows:
 *   0 int `payload`, 1 int `-payload - 1`, 2 string `table[payload]`, 3 array of `payload` values,
 *   4 object of shape `payload` (its values follow in key order), 5 false / true / null
 *   (payload 0 / 1 / 2), 6 another number, `Number(table[payload])`.
 * An integer is written in 6-bit groups, lowest first, as characters 0x40 + group while more
 * follow and 0x00 + group for the last (so the text is ASCII, and binary safe as a Redis value).
 */

export const MAGIC = "P1 ";

export const T_INT = 0;
export const T_NEG = 1;
export const T_STR = 2;
export const T_ARR = 3;
export const T_OBJ = 4;
export const T_CONST = 5;
export const T_NUM = 6;
