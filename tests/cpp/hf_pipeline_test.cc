// src/hf's pipeline on hand-made tokenizer.json files: Split behaviours (the Rust crate's own example), normalizers
// with spans, added tokens (lstrip, rstrip, single_word, normalized, split_special_tokens), the template and the
// decoders. Every expected value is derived by hand from the Rust crate's rules, which the comments state.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "hf/decoder.h"
#include "hf/pre_tokenizer.h"
#include "hf_test_files.h"

using hf_test::Ids;
using hf_test::Parts;
using Vec = std::vector<uint32_t>;

namespace {

std::vector<std::string> SplitWith(embedlab::SplitBehavior behavior, bool invert, const std::string& text) {
  embedlab::PreTokenizerStep step{embedlab::PreTokenizerStep::Kind::kSplitString, "-", behavior, invert};
  std::vector<embedlab::PieceRange> pieces;
  embedlab::SplitPiece(step, text, 0, &pieces);
  std::vector<std::string> out;
  for (const auto& p : pieces) out.push_back(text.substr(p.start, p.end - p.start));
  return out;
}

using Strings = std::vector<std::string>;

// Every printable ASCII character is a token (id = its code - 32), no merges.
Parts AsciiParts() {
  Parts parts;
  for (char c = ' '; c <= '~'; ++c) parts.vocab.push_back(std::string(1, c));
  return parts;
}

Vec Chars(const std::string& text) {
  Vec ids;
  for (char c : text) ids.push_back(static_cast<uint32_t>(c - ' '));
  return ids;
}

Vec Join(std::initializer_list<Vec> parts) {
  Vec out;
  for (const Vec& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace

TEST_CASE("hf Split behaviours give the Rust crate's pieces of its own example") {
  using B = embedlab::SplitBehavior;
  const std::string text = "The-final--countdown";
  CHECK(SplitWith(B::kRemoved, false, text) == Strings{"The", "final", "countdown"});
  CHECK(SplitWith(B::kIsolated, false, text) == Strings{"The", "-", "final", "-", "-", "countdown"});
  CHECK(SplitWith(B::kMergedWithPrevious, false, text) == Strings{"The-", "final-", "-", "countdown"});
  CHECK(SplitWith(B::kMergedWithNext, false, text) == Strings{"The", "-final", "-", "-countdown"});
  CHECK(SplitWith(B::kContiguous, false, text) == Strings{"The", "-", "final", "--", "countdown"});
  // invert: the words are the matches, so Removed keeps the dashes.
  CHECK(SplitWith(B::kRemoved, true, text) == Strings{"-", "-", "-"});
  CHECK(SplitWith(B::kMergedWithPrevious, true, "-a-") == Strings{"-a", "-"});
}

TEST_CASE("hf normalizers Prepend and Replace keep spans on the input") {
  Parts parts;
  parts.vocab = {
      "\xE2\x96\x81",   "H", "i", "y", "o", "u", "\xE2\x96\x81H", "\xE2\x96\x81Hi", "\xE2\x96\x81y", "\xE2\x96\x81yo",
      "\xE2\x96\x81you"};
  parts.merges = {{"\xE2\x96\x81", "H"},
                  {"\xE2\x96\x81H", "i"},
                  {"\xE2\x96\x81", "y"},
                  {"\xE2\x96\x81y", "o"},
                  {"\xE2\x96\x81yo", "u"}};
  parts.normalizer = R"({"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"▁"},
                         {"type":"Replace","pattern":{"String":" "},"content":"▁"}]})";
  const auto tokenizer = hf_test::Load(parts);
  // "Hi you" -> "▁Hi▁you": the prepended ▁ has no input byte, the replaced one is the space.
  const embedlab::HfEncoding encoding = tokenizer.Encode("Hi you", {false, false}, true);
  CHECK(encoding.ids == Vec{7, 10});
  CHECK(encoding.starts == Vec{0, 2});
  CHECK(encoding.ends == Vec{2, 6});
  CHECK(Ids(tokenizer, "").empty());  // Prepend leaves empty text empty (the Rust crate)
}

TEST_CASE("hf normalizers and pre-tokenizers outside the supported set are refused by name") {
  Parts parts = AsciiParts();
  parts.normalizer = R"({"type":"Lowercase"})";
  CHECK_THROWS_WITH(hf_test::Load(parts),
                    Catch::Contains("normalizer") && Catch::Contains("\"Lowercase\" is not supported"));
  parts.normalizer = R"({"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("the regex \"\\\\s+\""));
  parts.normalizer = "null";
  parts.pre_tokenizer = R"({"type":"Split","pattern":{"Regex":"[a-z]+|\\d"},"behavior":"Isolated","invert":false})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("the Split regex \"[a-z]+|\\\\d\" is not supported"));
  parts.pre_tokenizer = R"({"type":"Whitespace"})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("pre_tokenizer: the pre-tokenizer \"Whitespace\""));
  parts.pre_tokenizer = R"({"type":"Sequence","pretokenizers":[{"type":"ByteLevel"},
      {"type":"Split","pattern":{"String":"x"},"behavior":"Isolated"}]})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("after ByteLevel"));
  parts.pre_tokenizer = "null";
  parts.decoder = R"({"type":"CTC"})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("decoder: the decoder \"CTC\""));
  parts.decoder = "null";
  parts.post_processor = R"({"type":"BertProcessing"})";
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("\"BertProcessing\" is not supported"));
}

TEST_CASE("hf added tokens: leftmost-longest, lstrip, rstrip, single_word, as the Rust crate's AddedVocabulary") {
  Parts parts = AsciiParts();
  const uint32_t n = static_cast<uint32_t>(parts.vocab.size());  // added tokens take the next ids
  parts.added_tokens = "[" + std::string(R"({"id":95,"content":"[CLS]","special":true,"normalized":false},)") +
                       R"({"id":96,"content":"my","lstrip":true,"rstrip":true,"normalized":false},)" +
                       R"({"id":97,"content":"ony","single_word":true,"normalized":false},)" +
                       R"({"id":98,"content":"name","normalized":false},)" +
                       R"({"id":99,"content":"nam","normalized":false}])";
  REQUIRE(n == 95);
  const auto tokenizer = hf_test::Load(parts);
  // "my" takes the spaces around it; "ony" inside "Anthony" is not a word and stays text; "name" beats "nam".
  const std::string text = "[CLS] My my name is Anthony ony";
  const embedlab::HfEncoding e = tokenizer.Encode(text, {false, false}, true);
  CHECK(e.ids == Join({{95}, Chars(" My"), {96, 98}, Chars(" is Anthony "), {97}}));
  CHECK(e.starts[4] == 8);  // "my" spans " my " from the space before it
  CHECK(e.ends[4] == 12);
  // split_special_tokens: the special token is text; the others still match.
  CHECK(tokenizer.Encode("[CLS]name", {false, true}, false).ids == Join({Chars("[CLS]"), {98}}));
  CHECK(tokenizer.vocab_size() == 100);
  CHECK(tokenizer.TokenString(96) == "my");
}

TEST_CASE("hf added tokens whose ids differ from the Rust crate's are refused") {
  Parts parts = AsciiParts();
  parts.added_tokens = R"([{"id":200,"content":"<x>","special":true}])";  // the Rust crate would give it 95
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("added_tokens[0]") && Catch::Contains("gives it id 95"));
  parts.added_tokens = R"([{"id":3,"content":"a","special":true}])";  // "a" is 65 in the vocabulary
  CHECK_THROWS_WITH(hf_test::Load(parts), Catch::Contains("gives it id 65"));
}

TEST_CASE("hf normalized added tokens match the normalized text") {
  Parts parts = AsciiParts();
  parts.vocab.push_back("\xE2\x96\x81");  // 95
  parts.normalizer = R"({"type":"Replace","pattern":{"String":" "},"content":"▁"})";
  parts.added_tokens = R"([{"id":96,"content":" x","normalized":true}])";
  const auto tokenizer = hf_test::Load(parts);
  // " x" normalizes to "▁x", found in "a▁x▁y" after normalization.
  CHECK(Ids(tokenizer, "a x y") == Vec{65, 96, 95, 89});
}

TEST_CASE("hf TemplateProcessing adds its special tokens when asked") {
  Parts parts = AsciiParts();
  parts.added_tokens = R"([{"id":95,"content":"<s>","special":true,"normalized":false},
                           {"id":96,"content":"</s>","special":true,"normalized":false}])";
  parts.post_processor = R"({"type":"TemplateProcessing",
      "single":[{"SpecialToken":{"id":"<s>","type_id":0}},{"Sequence":{"id":"A","type_id":0}},
                {"SpecialToken":{"id":"</s>","type_id":0}}],
      "pair":[], "special_tokens":{"<s>":{"id":"<s>","ids":[95],"tokens":["<s>"]},
                                   "</s>":{"id":"</s>","ids":[96],"tokens":["</s>"]}}})";
  const auto tokenizer = hf_test::Load(parts);
  CHECK(Ids(tokenizer, "ab", true) == Vec{95, 65, 66, 96});
  CHECK(Ids(tokenizer, "ab", false) == Vec{65, 66});
  const embedlab::HfEncoding e = tokenizer.Encode("ab", {}, true);
  CHECK(e.starts == Vec{0, 0, 1, 2});
  CHECK(e.ends == Vec{0, 1, 2, 2});
  embedlab::HfDecodeOptions skip;
  skip.skip_special_tokens = true;
  CHECK(hf_test::Decode(tokenizer, e.ids) == "<s> a b </s>");  // no decoder: joined with spaces
  CHECK(hf_test::Decode(tokenizer, e.ids, skip) == "a b");
  CHECK_THROWS_AS(hf_test::Decode(tokenizer, {65, 97}), std::out_of_range);
}

TEST_CASE("hf decoders: SentencePiece chain, ByteFallback as the Rust crate, ByteLevel, clean-up") {
  using Kind = embedlab::DecoderStep::Kind;
  auto step = [](Kind kind, std::string pattern = "", std::string content = "", uint32_t start = 0) {
    return embedlab::DecoderStep{kind, pattern, content, start, 0};
  };
  embedlab::Decoder sentencepiece({step(Kind::kReplace, "\xE2\x96\x81", " "), step(Kind::kByteFallback),
                                   step(Kind::kFuse), step(Kind::kStrip, "", " ", 1)});
  CHECK(sentencepiece.Decode({"\xE2\x96\x81Hi", "\xE2\x96\x81you", "<0x21>"}) == "Hi you!");
  CHECK(sentencepiece.Decode({"<0xC3>", "<0xA9>"}) == "\xC3\xA9");
  // An invalid byte run: the Rust crate writes one U+FFFD per byte (Tokenizers.js' TextDecoder: one per run).
  CHECK(sentencepiece.Decode({"a", "<0xE4>", "<0xB8>"}) == "a\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(sentencepiece.TokenBytes("\xE2\x96\x81the") == " the");
  CHECK(sentencepiece.TokenBytes("<0x0A>") == "\n");
  embedlab::Decoder byte_level({step(Kind::kByteLevel)});
  CHECK(byte_level.Decode({"Hello", "\xC4\xA0world", "\xC4\x8A"}) == "Hello world\n");  // Ġ space, Ċ newline
  // Bytes E4 B8 of a three-byte character, then "!": one U+FFFD for the maximal subpart (from_utf8_lossy).
  CHECK(byte_level.Decode({"\xC3\xA4\xC2\xB8", "!"}) == "\xEF\xBF\xBD!");
  CHECK(embedlab::CleanUpTokenizationSpaces("a , b . c ' d do n't I 'm") == "a, b. c'd don't I'm");
}

namespace {

// The pieces of a Metaspace pre-tokenizer, with their spans on the input.
std::vector<std::pair<std::string, std::pair<uint32_t, uint32_t>>> MetaspacePieces(
    embedlab::PreTokenizerStep::Prepend prepend, const std::string& text, bool at_start) {
  embedlab::PreTokenizerStep step{embedlab::PreTokenizerStep::Kind::kMetaspace, "\xE2\x96\x81"};
  step.prepend = prepend;
  const embedlab::PreTokenizer pre_tokenizer({step});
  embedlab::PreTokenized out;
  pre_tokenizer.Split(text, at_start, &out);
  std::vector<std::pair<std::string, std::pair<uint32_t, uint32_t>>> pieces;
  for (const auto& p : out.pieces) {
    pieces.push_back(
        {std::string(out.text.substr(p.start, p.end - p.start)), {out.alignment[p.start], out.alignment[p.end]}});
  }
  return pieces;
}

}  // namespace

TEST_CASE("hf Metaspace pre-tokenizer and decoder as the Rust crate's own tests have them") {
  using P = embedlab::PreTokenizerStep::Prepend;
  using Pieces = std::vector<std::pair<std::string, std::pair<uint32_t, uint32_t>>>;
  const std::string m = "\xE2\x96\x81";
  CHECK(MetaspacePieces(P::kAlways, "Hey friend!", true) == Pieces{{m + "Hey", {0, 3}}, {m + "friend!", {3, 11}}});
  CHECK(MetaspacePieces(P::kAlways, "Hey   friend!", true) ==
        Pieces{{m + "Hey", {0, 3}}, {m, {3, 4}}, {m, {4, 5}}, {m + "friend!", {5, 13}}});
  // "first": only the piece at the start of the input gets the prefix.
  CHECK(MetaspacePieces(P::kFirst, "Hey", false) == Pieces{{"Hey", {0, 3}}});
  CHECK(MetaspacePieces(P::kFirst, "Hey", true) == Pieces{{m + "Hey", {0, 3}}});
  CHECK(MetaspacePieces(P::kNever, "a b", true) == Pieces{{"a", {0, 1}}, {m + "b", {1, 3}}});
  embedlab::DecoderStep step{embedlab::DecoderStep::Kind::kMetaspace, "", m};
  CHECK(embedlab::Decoder({step}).Decode({m + "Hey", m + "friend!"}) == "Hey friend!");
  step.prepended = false;
  CHECK(embedlab::Decoder({step}).Decode({m + "Hey", m + "friend!"}) == " Hey friend!");
}
