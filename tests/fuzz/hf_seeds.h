// Seeds of the hf_json and hf_binary fuzz targets (make_seeds.cc calls WriteHfSeeds): two small tokenizer.json
// files in the shapes of the real ones (byte-level with a Split regex and a template; SentencePiece-style with
// normalizers, byte_fallback and a decoder chain), each followed by a NUL and a text, and their binary forms.
#ifndef EMBEDLAB_TESTS_FUZZ_HF_SEEDS_H_
#define EMBEDLAB_TESTS_FUZZ_HF_SEEDS_H_

#include <cstdio>
#include <string>

#include "hf/hf_tokenizer.h"
#include "text/json_value.h"
#include "text/pre_tokenizer.h"

namespace hf_seeds {

inline std::string ByteLevelJson() {
  // GPT-2's alphabet for the 94 printable ASCII bytes and the space (Ġ), a few merges.
  std::string vocab;
  int id = 0;
  auto add = [&](const std::string& token) {
    vocab += (id ? "," : "") + embedlab::QuoteJson(token) + ":" + std::to_string(id);
    ++id;
  };
  for (char c = '!'; c <= '~'; ++c) add(std::string(1, c));
  for (const char* token : {"\xC4\xA0", "\xC4\xA0t", "he", "\xC4\xA0the"}) add(token);  // Ġ is the space
  const std::string regex =
      embedlab::QuoteJson(std::string(embedlab::PatternRegex(embedlab::PreTokenizerPattern::kCl100k)));
  return R"({"version":"1.0","truncation":null,"padding":null,"added_tokens":[{"id":)" + std::to_string(id) +
         R"(,"content":"<|begin|>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}],)"
         R"("normalizer":null,"pre_tokenizer":{"type":"Sequence","pretokenizers":[{"type":"Split","pattern":{"Regex":)" +
         regex +
         R"(},"behavior":"Isolated","invert":false},{"type":"ByteLevel","add_prefix_space":false,)"
         R"("trim_offsets":true,"use_regex":false}]},"post_processor":{"type":"Sequence","processors":[{"type":"ByteLevel"},)"
         R"({"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<|begin|>","type_id":0}},{"Sequence":{"id":"A","type_id":0}}],)"
         R"("pair":[],"special_tokens":{"<|begin|>":{"id":"<|begin|>","ids":[)" +
         std::to_string(id) +
         R"(],"tokens":["<|begin|>"]}}}]},"decoder":{"type":"ByteLevel"},"model":{"type":"BPE","dropout":null,)"
         R"("unk_token":null,"fuse_unk":false,"byte_fallback":false,"ignore_merges":true,"vocab":{)" +
         vocab + R"(},"merges":["\u0120 t","h e",["\u0120t","he"]]}})";
}

inline std::string SentencePieceJson() {
  std::string vocab = "\"<unk>\":0,\"<s>\":1";
  int id = 2;
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    vocab += ",\"" + std::string(name) + "\":" + std::to_string(id++);
  }
  for (const char* token : {"\xE2\x96\x81", "a", "b",
                            "\xE2\x96\x81"
                            "a",
                            "ab",
                            "\xE2\x96\x81"
                            "ab",
                            ">", "<", "\xE2\x96\x81<"}) {
    vocab += "," + embedlab::QuoteJson(token) + ":" + std::to_string(id++);
  }
  return R"({"version":"1.0","truncation":null,"padding":null,"added_tokens":[)"
         R"({"id":0,"content":"<unk>","special":true,"normalized":false},{"id":1,"content":"<s>","special":true,"normalized":false},)"
         R"({"id":)" +
         std::to_string(id) +
         R"(,"content":"\n\n","special":false,"normalized":false,"lstrip":true,"rstrip":true}],)"
         R"("normalizer":{"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"▁"},)"
         R"({"type":"Replace","pattern":{"String":" "},"content":"▁"}]},"pre_tokenizer":null,)"
         R"("post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"<s>","type_id":0}},)"
         R"({"Sequence":{"id":"A","type_id":0}}],"pair":[],"special_tokens":{"<s>":{"id":"<s>","ids":[1],"tokens":["<s>"]}}},)"
         R"("decoder":{"type":"Sequence","decoders":[{"type":"Replace","pattern":{"String":"▁"},"content":" "},)"
         R"({"type":"ByteFallback"},{"type":"Fuse"},{"type":"Strip","content":" ","start":1,"stop":0}]},)"
         R"("model":{"type":"BPE","dropout":null,"unk_token":"<unk>","fuse_unk":true,"byte_fallback":true,"vocab":{)" +
         vocab + R"(},"merges":["▁ a","a b","▁a b","▁ <"]}})";
}

template <typename Write>
void WriteHfSeeds(const Write& write) {
  const std::string texts[] = {"Hello the world <|begin|> it's 123", "ab ab\n\nba \xC3\xA9\xF0\x9F\x98\x80<s>x"};
  int index = 0;
  for (const std::string& json : {ByteLevelJson(), SentencePieceJson()}) {
    const std::string text = texts[index];
    write("hf_json", "file" + std::to_string(index), json + std::string(1, '\0') + text);
    const std::string binary = embedlab::HfTokenizer::FromJson(json, "", "seed").ToBinary();
    write("hf_binary", "file" + std::to_string(index), std::string(1, static_cast<char>(text.size())) + text + binary);
    ++index;
  }
}

}  // namespace hf_seeds

#endif  // EMBEDLAB_TESTS_FUZZ_HF_SEEDS_H_
