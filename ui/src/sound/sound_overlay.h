// What the Sound tab paints over the audio tokens' spans, and what its figure paints: nothing
// (the spans only), the selected text token's distance, or its positional bias.
#pragma once

namespace ropescope::ui {

enum class SoundOverlay { None, Distance, Bias };

}  // namespace ropescope::ui
