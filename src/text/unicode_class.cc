#include "text/unicode_class.h"

namespace embedlab {

#include "text/unicode_classes.inc"

const uint8_t kCharClassFlags[11] = {
    0,                                            // kOther
    kFlagSpace,                                   // kWhiteSpace
    kFlagNumber,                                  // kNumber
    kFlagUpperish | kFlagLowerish | kFlagMark,    // kMark
    kFlagLetter | kFlagUpperish,                  // kUppercaseLetter
    kFlagLetter | kFlagLowerish,                  // kLowercaseLetter
    kFlagLetter | kFlagUpperish,                  // kTitlecaseLetter
    kFlagLetter | kFlagUpperish | kFlagLowerish,  // kModifierLetter
    kFlagLetter | kFlagUpperish | kFlagLowerish,  // kOtherLetter
    kFlagPunctuation,                             // kPunctuation
    kFlagSymbol,                                  // kSymbol
};

}  // namespace embedlab
