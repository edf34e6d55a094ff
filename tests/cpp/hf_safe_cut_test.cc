// HfTokenizer::SafeCut and the part encoding it pairs with (starts_after_cut, ends_at_cut): the parts' ids equal the
// whole text's; Prepend is not repeated after a cut; no cut next to an added token, before a combining mark under
// NFC, or in a pipeline with no proof (Metaspace, stripping added tokens).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hf_test_files.h"
#include "text/split_patterns.h"

using embedlab::HfTokenizer;
using hf_test::Parts;

namespace {

const char kSpace[] = "\xE2\x96\x81";  // ▁

// Llama 2's shape: Prepend "▁" and spaces replaced by "▁", one pre-token, merges that never join across "▁".
Parts OnePieceParts() {
  Parts parts;
  const std::string s = kSpace;
  parts.vocab = {s, "a", "b", s + "a", s + "b", "ab", s + "ab", "<s>"};
  parts.merges = {{s, "a"}, {s, "b"}, {"a", "b"}, {s + "a", "b"}};
  parts.added_tokens = R"([{"id":7,"content":"<s>","special":true,"normalized":false}])";
  parts.normalizer = R"({"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"▁"},)"
                     R"({"type":"Replace","pattern":{"String":" "},"content":"▁"}]})";
  parts.post_processor =
      R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},)"
      R"({"Sequence":{"id":"A","type_id":0}}],"pair":[],"special_tokens":{"<s>":{"id":"<s>","ids":[7],"tokens":["<s>"]}}})";
  return parts;
}

std::vector<uint32_t> EncodeInTwo(const HfTokenizer& tokenizer, const std::string& text, size_t cut) {
  embedlab::HfEncodeOptions first;
  first.ends_at_cut = true;
  embedlab::HfEncodeOptions rest;
  rest.starts_after_cut = true;
  std::vector<uint32_t> ids = tokenizer.Encode(text.substr(0, cut), first, false).ids;
  const std::vector<uint32_t> more = tokenizer.Encode(text.substr(cut), rest, false).ids;
  ids.insert(ids.end(), more.begin(), more.end());
  return ids;
}

}  // namespace

TEST_CASE("hf SafeCut: one pre-token with Prepend cuts before a space, the rest not prepended again") {
  const HfTokenizer tokenizer = hf_test::Load(OnePieceParts());
  const std::string text = "ab ab ab ba";
  CHECK(tokenizer.SafeCut(text, 1, 10) == 8);
  CHECK(tokenizer.SafeCut(text, 1, 7) == 5);
  CHECK(tokenizer.SafeCut(text, 6, 7) == HfTokenizer::kNoCut);  // no space there
  // 2 is closer to the start than the longest added token ("<s>"): a token before `text` could reach it.
  CHECK(tokenizer.SafeCut(text, 1, 4) == HfTokenizer::kNoCut);
  const std::vector<uint32_t> whole = tokenizer.Encode(text, {}, false).ids;
  CHECK(whole == std::vector<uint32_t>{7, 6, 6, 6, 4, 1});  // <s> ▁ab ▁ab ▁ab ▁b a
  CHECK(EncodeInTwo(tokenizer, text, 5) == whole);
  CHECK(EncodeInTwo(tokenizer, text, 8) == whole);
  // Encoded as a text of its own, the rest would get Prepend's "▁" again.
  embedlab::HfEncodeOptions plain;
  plain.add_special_tokens = false;
  CHECK(tokenizer.Encode(" ba", plain, false).ids != std::vector<uint32_t>{4, 1});
}

TEST_CASE("hf SafeCut: never next to an added token, nor before one that may still be completed") {
  const HfTokenizer tokenizer = hf_test::Load(OnePieceParts());
  const std::string text = "ab <s> ab <s";
  for (size_t c = 1; c < text.size(); ++c) {
    const size_t cut = tokenizer.SafeCut(text, c, c);
    if (cut == HfTokenizer::kNoCut) continue;
    INFO(c);
    CHECK((c < 3 || text.compare(c - 3, 3, "<s>") != 0));
    CHECK(text.compare(c, 3, "<s>") != 0);
    CHECK(c + 2 < text.size());  // " <s" at the end may become "<s>"
    CHECK(EncodeInTwo(tokenizer, text + ">", c) == tokenizer.Encode(text + ">", {}, false).ids);
  }
  CHECK(tokenizer.SafeCut(text, 1, text.size()) == 9);
  // Before 3 bytes (the longest added token) the text before `text` could hold a token reaching the cut.
  CHECK(tokenizer.SafeCut(text, 1, 5) == HfTokenizer::kNoCut);
}

TEST_CASE("hf SafeCut: no cut in a pipeline it has no proof for") {
  Parts strip = OnePieceParts();
  strip.added_tokens = R"([{"id":7,"content":"<s>","special":true,"normalized":false,"lstrip":true}])";
  CHECK(hf_test::Load(strip).SafeCut("ab ab ba", 1, 7) == HfTokenizer::kNoCut);
  Parts metaspace = OnePieceParts();
  metaspace.normalizer = "null";
  metaspace.pre_tokenizer = R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true})";
  CHECK(hf_test::Load(metaspace).SafeCut("ab ab ba", 1, 7) == HfTokenizer::kNoCut);
}

TEST_CASE("hf SafeCut: regex pieces cut by the local rules and under NFC never before a combining mark") {
  const std::string split = R"({"type":"Split","pattern":{"Regex":)" +
                            embedlab::QuoteJson(embedlab::split_regex::kCl100k) +
                            R"(},"behavior":"Isolated","invert":false})";
  Parts parts = OnePieceParts();
  parts.normalizer = "null";
  parts.post_processor = "null";
  parts.added_tokens = "[]";
  parts.pre_tokenizer = split;
  const HfTokenizer plain = hf_test::Load(parts);
  const std::string text =
      "xa\n\xCC\x81"
      "b";                                                      // "xa", "\n", U+0301, "b"
  CHECK(plain.SafeCut(text, 3, 3) == 3);                        // rule C: after "\n" that follows a letter
  CHECK(plain.SafeCut("ab cd", 1, 4) == 2);                     // rule B: before the space
  CHECK(plain.SafeCut("ab  cd", 3, 3) == HfTokenizer::kNoCut);  // inside a whitespace run
  CHECK(plain.SafeCut("ab.cd", 2, 2) == 2);                     // rule A
  CHECK(plain.SafeCut("abcd", 1, 3) == HfTokenizer::kNoCut);    // inside a letter run
  parts.normalizer = R"({"type":"NFC"})";
  const HfTokenizer nfc = hf_test::Load(parts);
  CHECK(nfc.SafeCut(text, 3, 3) == HfTokenizer::kNoCut);
  CHECK(nfc.SafeCut("ab cd", 1, 4) == 2);
}
