// ReadTokenizerJson: one pass over tokenizer.json with the pull reader. model.vocab and model.merges go straight
// into their tables; the small parts (normalizer, pre_tokenizer, post_processor, decoder, each added token) are
// parsed on their own text into a JsonValue. Members may come in any order: merges seen before the vocabulary are
// read once it is in.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "hf/hf_tokenizer_impl.h"
#include "hf/json_cursor.h"
#include "hf/json_parts.h"

namespace embedlab {
namespace {

constexpr char kWhat[] = "tokenizer.json";

JsonValue ParsePart(JsonCursor* cursor) {
  const std::string_view text = cursor->SkipValue();
  std::optional<JsonValue> value = ParseJson(text);
  if (!value) cursor->Fail("this part is not valid JSON");  // unreachable: SkipValue validated it
  return std::move(*value);
}

std::string OptionalString(JsonCursor* cursor) {
  if (cursor->Peek() == JsonCursor::Kind::kNull) {
    cursor->ReadNull();
    return "";
  }
  return std::string(cursor->ReadString());
}

// Entries go in by batches whose table slots are prefetched first (each insert is a likely cache miss).
void ReadVocabulary(JsonCursor* cursor, TokenTable* vocab) {
  constexpr size_t kBatch = 16;
  struct Entry {
    size_t offset;
    size_t length;
    uint32_t id;
  };
  Entry entries[kBatch];
  std::string keys;  // the batch's keys (a key with escapes lives in the cursor's buffer only until the next one)
  size_t count = 0;
  auto flush = [&] {
    for (size_t i = 0; i < count; ++i)
      vocab->Prepare(std::string_view(keys).substr(entries[i].offset, entries[i].length));
    for (size_t i = 0; i < count; ++i) {
      const std::string_view token = std::string_view(keys).substr(entries[i].offset, entries[i].length);
      const uint32_t id = entries[i].id;
      bool id_taken = false;
      const uint32_t existing = vocab->Add(token, id, &id_taken);
      if (id_taken) {
        RefuseAt("model.vocab", "the id " + std::to_string(id) + " is given to two tokens, " +
                                    QuoteJson(vocab->String(id)) + " and " + QuoteJson(token));
      }
      if (existing != TokenTable::kNone) {
        RefuseAt("model.vocab", "the token " + QuoteJson(token) + " appears twice (ids " + std::to_string(existing) +
                                    " and " + std::to_string(id) + ")");
      }
    }
    count = 0;
    keys.clear();
  };
  std::string_view token;
  cursor->BeginObject();
  while (cursor->NextMember(&token)) {
    entries[count] = {keys.size(), token.size(), 0};
    keys.append(token);  // reading the integer leaves the cursor's string buffer alone
    entries[count].id = static_cast<uint32_t>(cursor->ReadInteger(0, TokenTable::kMaxTokens - 1));
    if (++count == kBatch) flush();
  }
  flush();
}

// Merges are read in batches: first their strings, then every lookup with its memory prefetched (three vocabulary
// lookups and one insert per merge, each a likely cache miss in tables of megabytes).
class MergeReader {
 public:
  MergeReader(const TokenTable& vocab, MergeTable* merges) : vocab_(vocab), merges_(merges) {}

  void Read(JsonCursor* cursor) {
    cursor->BeginArray();
    while (cursor->NextItem()) {
      if (merges_->size() + count_ >= MergeTable::kMaxMerges) {
        cursor->Fail("more than " + std::to_string(MergeTable::kMaxMerges) + " merges");
      }
      Batch& b = batch_[count_];
      if (cursor->Peek() == JsonCursor::Kind::kString) {
        const std::string_view line = cursor->ReadString();
        const size_t space = line.find(' ');
        if (space == std::string_view::npos || line.find(' ', space + 1) != std::string_view::npos) {
          cursor->Fail("a merge written as a string must be two tokens separated by one space, found " +
                       QuoteJson(line));
        }
        b.left.assign(line.substr(0, space));
        b.right.assign(line.substr(space + 1));
      } else {
        cursor->BeginArray();
        int items = 0;
        while (cursor->NextItem()) {
          if (items == 2) cursor->Fail("a merge must be a pair of tokens");
          (items++ == 0 ? b.left : b.right).assign(cursor->ReadString());
        }
        if (items != 2) cursor->Fail("a merge must be a pair of tokens");
      }
      if (++count_ == kBatch) Flush();
    }
    Flush();
  }

 private:
  static constexpr size_t kBatch = 128;
  struct Batch {
    std::string left, right, joined;
    TokenTable::Probe probes[3];
    uint32_t ids[3];
  };

  // Software-pipelined: the lookups of merge i + kAhead are prefetched while merge i is looked up.
  void Flush() {
    constexpr size_t kAhead = 6;
    auto prepare = [&](size_t i) {
      Batch& b = batch_[i];
      b.joined.assign(b.left).append(b.right);
      b.probes[0] = vocab_.Prepare(b.left);
      b.probes[1] = vocab_.Prepare(b.right);
      b.probes[2] = vocab_.Prepare(b.joined);
    };
    for (size_t i = 0; i < count_ && i < kAhead; ++i) prepare(i);
    for (size_t i = 0; i < count_; ++i) {
      if (i + kAhead < count_) prepare(i + kAhead);
      Batch& b = batch_[i];
      const std::string* strings[3] = {&b.left, &b.right, &b.joined};
      static const char* const kRoles[3] = {"first token", "second token", "result"};
      for (int k = 0; k < 3; ++k) {
        b.ids[k] = vocab_.Find(*strings[k], b.probes[k]);
        if (b.ids[k] == TokenTable::kNone) {
          RefuseAt(
              "model.merges[" + std::to_string(merges_->size() + i) + "]",
              std::string("the merge's ") + kRoles[k] + " " + QuoteJson(*strings[k]) + " is not in the vocabulary");
        }
      }
      if (i >= kAhead) merges_->Add(batch_[i - kAhead].ids[0], batch_[i - kAhead].ids[1], batch_[i - kAhead].ids[2]);
      merges_->Prefetch(b.ids[0], b.ids[1]);
    }
    for (size_t i = count_ > kAhead ? count_ - kAhead : 0; i < count_; ++i) {
      merges_->Add(batch_[i].ids[0], batch_[i].ids[1], batch_[i].ids[2]);
    }
    count_ = 0;
  }

  const TokenTable& vocab_;
  MergeTable* merges_;
  Batch batch_[kBatch];
  size_t count_ = 0;
};

void ReadMerges(JsonCursor* cursor, const TokenTable& vocab, MergeTable* merges) {
  merges->Reserve(vocab.size());  // the files have one to two merges per token: at most one growth
  auto reader = std::make_unique<MergeReader>(vocab, merges);
  reader->Read(cursor);
}

bool ReadBooleanOrNull(JsonCursor* cursor, bool fallback) {
  if (cursor->Peek() == JsonCursor::Kind::kNull) {
    cursor->ReadNull();
    return fallback;
  }
  return cursor->ReadBoolean();
}

struct ModelSettings {
  BpeOptions options;
  std::string unk_token;
  bool have_vocab = false;
  bool have_merges = false;
};

void ReadModel(JsonCursor* cursor, std::string_view json, HfTokenizerImpl* impl, ModelSettings* settings) {
  std::string_view key;
  size_t merges_at = std::string_view::npos;  // merges before the vocabulary: read after it
  std::string type;
  cursor->BeginObject();
  while (cursor->NextMember(&key)) {
    if (key == "type") {
      type = cursor->ReadString();
      if (type != "BPE") cursor->Fail("the model type \"" + type + "\" is not supported (only BPE)");
    } else if (key == "vocab") {
      ReadVocabulary(cursor, &impl->model.vocab());
      settings->have_vocab = true;
    } else if (key == "merges") {
      settings->have_merges = true;
      if (settings->have_vocab) {
        ReadMerges(cursor, impl->model.vocab(), &impl->model.merges());
      } else {
        merges_at = cursor->position();
        cursor->SkipValue();
      }
    } else if (key == "unk_token") {
      settings->unk_token = OptionalString(cursor);
    } else if (key == "fuse_unk") {
      settings->options.fuse_unk = ReadBooleanOrNull(cursor, false);
    } else if (key == "byte_fallback") {
      settings->options.byte_fallback = ReadBooleanOrNull(cursor, false);
    } else if (key == "ignore_merges") {
      settings->options.ignore_merges = ReadBooleanOrNull(cursor, false);
    } else if (key == "continuing_subword_prefix" || key == "end_of_word_suffix") {
      const std::string name(key);
      if (!OptionalString(cursor).empty()) cursor->Fail("a non-empty " + name + " is not supported");
    } else if (key == "dropout") {
      if (cursor->Peek() == JsonCursor::Kind::kNull) {
        cursor->ReadNull();
      } else {
        const std::string_view dropout = cursor->SkipValue();
        if (dropout != "0" && dropout != "0.0") cursor->Fail("BPE dropout is not supported (it makes encoding random)");
      }
    } else {
      cursor->SkipValue();
    }
  }
  if (type.empty()) cursor->Fail("the model has no \"type\"");
  if (!settings->have_vocab) cursor->Fail("the model has no \"vocab\"");
  if (!settings->have_merges) cursor->Fail("the model has no \"merges\"");
  if (merges_at != std::string_view::npos) {
    JsonCursor merges_cursor(json.substr(merges_at), std::string(kWhat) + " model.merges");
    ReadMerges(&merges_cursor, impl->model.vocab(), &impl->model.merges());
  }
}

std::vector<AddedToken> ReadAddedTokens(JsonCursor* cursor) {
  std::vector<AddedToken> tokens;
  cursor->BeginArray();
  while (cursor->NextItem()) {
    const std::string path = cursor->Path();
    const JsonValue value = ParsePart(cursor);
    AddedToken token;
    token.content = RequireMember(value, path, "content", JsonValue::Kind::kString).string;
    const JsonValue& id = RequireMember(value, path, "id", JsonValue::Kind::kNumber);
    if (!id.IsUnsigned() || id.uint_value >= TokenTable::kMaxTokens) {
      RefuseAt(path + ".id", "expected an integer from 0 to " + std::to_string(TokenTable::kMaxTokens - 1));
    }
    token.id = static_cast<uint32_t>(id.uint_value);
    token.special = OptionalBoolean(value, path, "special", false);
    token.normalized = OptionalBoolean(value, path, "normalized", !token.special);
    token.lstrip = OptionalBoolean(value, path, "lstrip", false);
    token.rstrip = OptionalBoolean(value, path, "rstrip", false);
    token.single_word = OptionalBoolean(value, path, "single_word", false);
    tokens.push_back(std::move(token));
  }
  return tokens;
}

bool ReadCleanUpDefault(std::string_view config) {
  if (config.empty()) return false;
  JsonCursor cursor(config, "tokenizer_config.json");
  std::string_view key;
  bool clean_up = false;
  cursor.BeginObject();
  while (cursor.NextMember(&key)) {
    if (key == "clean_up_tokenization_spaces") {
      clean_up = cursor.ReadBoolean();
    } else {
      cursor.SkipValue();
    }
  }
  cursor.ExpectEnd();
  return clean_up;
}

}  // namespace

std::unique_ptr<HfTokenizerImpl> ReadTokenizerJson(std::string_view json, std::string_view config, std::string name) {
  auto impl = std::make_unique<HfTokenizerImpl>();
  impl->name = std::move(name);
  impl->clean_up_default = ReadCleanUpDefault(config);
  JsonCursor cursor(json, kWhat);
  std::vector<AddedToken> added;
  ModelSettings settings;
  bool have_model = false;
  std::string_view key;
  cursor.BeginObject();
  while (cursor.NextMember(&key)) {
    const std::string path(key);
    if (key == "version") {
      const std::string version(cursor.ReadString());
      if (version != "1.0") cursor.Fail("the version \"" + version + "\" is not 1.0");
    } else if (key == "truncation" || key == "padding") {
      if (cursor.Peek() != JsonCursor::Kind::kNull) cursor.Fail(path + " is not supported (it must be null)");
      cursor.ReadNull();
    } else if (key == "added_tokens") {
      added = ReadAddedTokens(&cursor);
    } else if (key == "normalizer") {
      impl->normalizer = Normalizer::FromJson(ParsePart(&cursor), path);
    } else if (key == "pre_tokenizer") {
      impl->pre_tokenizer = PreTokenizer::FromJson(ParsePart(&cursor), path);
    } else if (key == "post_processor") {
      impl->post_processor = PostProcessor::FromJson(ParsePart(&cursor), path);
    } else if (key == "decoder") {
      impl->decoder = Decoder::FromJson(ParsePart(&cursor), path);
    } else if (key == "model") {
      ReadModel(&cursor, json, impl.get(), &settings);
      have_model = true;
    } else {
      cursor.SkipValue();
    }
  }
  cursor.ExpectEnd();
  if (!have_model) throw std::invalid_argument("tokenizer.json: there is no \"model\"");
  settings.options.byte_level = impl->pre_tokenizer.byte_level();
  if (!settings.unk_token.empty()) {
    settings.options.unk_id = impl->model.vocab().Find(settings.unk_token);
    if (settings.options.unk_id == TokenTable::kNone) {
      RefuseAt("model.unk_token", "the unknown token " + QuoteJson(settings.unk_token) + " is not in the vocabulary");
    }
  }
  impl->Finish(std::move(added), settings.options);
  return impl;
}

}  // namespace embedlab
