#include "hf/hf_tokenizer.h"

#include <stdexcept>
#include <utility>

#include "hf/decode_table.h"
#include "hf/hf_tokenizer_impl.h"

namespace embedlab {

HfTokenizer::HfTokenizer(std::unique_ptr<HfTokenizerImpl> impl) : impl_(std::move(impl)) {}
HfTokenizer::HfTokenizer(HfTokenizer&&) noexcept = default;
HfTokenizer& HfTokenizer::operator=(HfTokenizer&&) noexcept = default;
HfTokenizer::~HfTokenizer() = default;

HfTokenizer HfTokenizer::FromJson(std::string_view tokenizer_json, std::string_view config_json, std::string name) {
  return HfTokenizer(ReadTokenizerJson(tokenizer_json, config_json, std::move(name)));
}

HfTokenizer HfTokenizer::FromBinary(std::string_view data) { return HfTokenizer(ReadHfBinary(data)); }
bool HfTokenizer::IsBinary(std::string_view data) { return IsHfBinary(data); }
std::string HfTokenizer::ToBinary() const { return WriteHfBinary(*impl_); }

std::string HfTokenizer::Decode(const uint32_t* ids, size_t count, const HfDecodeOptions& options) const {
  const bool clean_up =
      options.clean_up_tokenization_spaces < 0 ? impl_->clean_up_default : options.clean_up_tokenization_spaces > 0;
  if (const DecodeTable* table = impl_->decode_table()) {
    std::string text = table->Decode(ids, count, options.skip_special_tokens, *impl_);
    return clean_up ? CleanUpTokenizationSpaces(std::move(text)) : text;
  }
  std::vector<std::string> tokens;
  tokens.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    std::string_view token;
    if (!impl_->Lookup(ids[i], &token)) {
      throw std::out_of_range("ids[" + std::to_string(i) + "] = " + std::to_string(ids[i]) + " is not a token of " +
                              impl_->name + " (ids 0 to " + std::to_string(impl_->vocab_size - 1) + ")");
    }
    if (options.skip_special_tokens) {
      const AddedToken* added = impl_->added.ById(ids[i]);
      if (added != nullptr && added->special) continue;
    }
    tokens.emplace_back(token);
  }
  std::string text = impl_->decoder.Decode(std::move(tokens));
  return clean_up ? CleanUpTokenizationSpaces(std::move(text)) : text;
}

std::string HfTokenizer::TokenString(uint32_t id) const {
  std::string_view token;
  if (!impl_->Lookup(id, &token)) {
    throw std::out_of_range("id " + std::to_string(id) + " is not a token of " + impl_->name);
  }
  return std::string(token);
}

std::string HfTokenizer::TokenBytes(uint32_t id) const { return impl_->decoder.TokenBytes(TokenString(id)); }

const std::string& HfTokenizer::name() const { return impl_->name; }
size_t HfTokenizer::vocab_size() const { return impl_->vocab_size; }
const std::vector<HfTokenizer::AddedTokenInfo>& HfTokenizer::added_tokens() const { return impl_->added_infos; }

}  // namespace embedlab
