#include "hf/hf_tokenizer_impl.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "hf/decode_table.h"
#include "hf/json_parts.h"

namespace embedlab {

HfTokenizerImpl::~HfTokenizerImpl() { delete decode_table_.load(); }

// Built once; two threads that decode first may both build it, and the one that loses keeps none of its own.
const DecodeTable* HfTokenizerImpl::decode_table() const {
  if (decode_table_built_.load(std::memory_order_acquire)) return decode_table_.load(std::memory_order_acquire);
  std::unique_ptr<DecodeTable> built = DecodeTable::Build(*this);
  DecodeTable* expected = nullptr;
  if (built != nullptr && decode_table_.compare_exchange_strong(expected, built.get(), std::memory_order_acq_rel)) {
    built.release();
  }
  decode_table_built_.store(true, std::memory_order_release);
  return decode_table_.load(std::memory_order_acquire);
}

void HfTokenizerImpl::Finish(std::vector<AddedToken> tokens, const BpeOptions& options) {
  const TokenTable& vocab = model.vocab();
  // The Rust crate ignores the ids written in added_tokens: a token in the vocabulary keeps its id, a new one gets
  // the next id after the vocabulary (AddedVocabulary::add_tokens), while Tokenizers.js takes the written id. A
  // file where the two differ would tokenize differently in each, so it is refused.
  std::unordered_map<std::string, uint32_t> seen;
  bool any = false;
  uint32_t max_id = 0;
  const auto model_size = static_cast<uint32_t>(vocab.size());
  std::vector<std::string> normalized_contents(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    const AddedToken& token = tokens[i];
    const std::string path = "added_tokens[" + std::to_string(i) + "]";
    if (token.content.empty()) RefuseAt(path, "an added token has no content");
    if (seen.count(token.content) > 0)
      RefuseAt(path, "the added token " + QuoteJson(token.content) + " is listed twice");
    const uint32_t in_vocab = vocab.Find(token.content);
    uint32_t id = in_vocab;
    if (id == TokenTable::kNone)
      id = !any ? model_size : (max_id >= model_size || model_size == 0) ? max_id + 1 : model_size;
    if (id != token.id) {
      RefuseAt(path, "the added token " + QuoteJson(token.content) + " has id " + std::to_string(token.id) +
                         ", but the Rust tokenizers crate gives it id " + std::to_string(id) +
                         " (its id in the vocabulary, or the next free id after it); Tokenizers.js would use " +
                         std::to_string(token.id));
    }
    if (in_vocab == TokenTable::kNone && vocab.Has(id)) {
      RefuseAt(path, "the added token " + QuoteJson(token.content) + " takes id " + std::to_string(id) +
                         ", which the vocabulary gives to " + QuoteJson(vocab.String(id)));
    }
    seen.emplace(token.content, id);
    any = true;
    max_id = std::max(max_id, id);
    if (token.normalized) normalizer.Apply(token.content, &normalized_contents[i], nullptr);
  }
  added_infos.clear();
  for (const AddedToken& token : tokens) added_infos.push_back({token.content, token.id, token.special});
  vocab_size = std::max(vocab.id_end(), any ? max_id + 1 : 0);
  added = AddedVocabulary(std::move(tokens), normalized_contents);
  std::string_view unused;
  for (const auto* list : {&post_processor.prefix, &post_processor.suffix}) {
    for (uint32_t id : *list) {
      if (!Lookup(id, &unused)) {
        RefuseAt("post_processor", "the template's special token id " + std::to_string(id) + " is not a token");
      }
    }
  }
  model.Finish(options);
}

bool HfTokenizerImpl::Lookup(uint32_t id, std::string_view* token) const {
  if (const AddedToken* added_token = added.ById(id)) {
    *token = added_token->content;
    return true;
  }
  if (!model.vocab().Has(id)) return false;
  *token = model.vocab().String(id);
  return true;
}

}  // namespace embedlab
