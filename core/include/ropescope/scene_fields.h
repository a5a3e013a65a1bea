// The Scene's fields that are not design parameters (those are the designs' ParameterSpecs),
// declared once: key, JSON place, CLI flag, type, range or choices, default, label and help.
// The JSON reader and writer, the validators, the CLI table and the scene panel read them from
// here, so their ranges cannot disagree; the key is the field id of every error (InputError)
// about the field and the object name of the widget that edits it.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ropescope/parameters.h"

namespace ropescope {

struct Scene;

// A field's value as the session file and the command line hold it: a whole number (Integer),
// a number (Number), a name (Choice) or text, or a list of whole numbers (sections).
using FieldValue = std::variant<long long, double, std::string, std::vector<int>>;

struct SceneField {
  // key ("head_dim"), label, help, kind, range (min..max, whole numbers for Integer), default
  // and choices, as for a design parameter. A Choice field's default is an index.
  ParameterSpec spec;
  std::string section;  // the JSON object it is in: "frequency", "age", "image_grid"; "" = top
  std::string jsonKey;  // its key there: "head_dim"
  std::string cliFlag;  // "head-dim" (written --head-dim); empty: no command-line option
  bool even = false;    // Integer: even numbers only
  bool list = false;    // a list of values, each in the range (sections)
  bool text = false;    // free text (layout, model, ids_file): the range does not apply
  // The session file leaves it out at its default (a text: when empty), as files written
  // before the field existed did.
  bool optional = false;
  std::string defaultText;  // a text field's default ("t4,i6x6,t8" for the layout)
  // Where the field lives in a Scene: its value (a Choice as its name) and how it is set from
  // one. set takes a value of the field's type, in range or not (validateScene checks ranges);
  // a Choice's unknown name is refused with its registry's message. Both are null for the two
  // fields that name files (layout, ids_file): the session file reads and writes them against
  // its own folder.
  FieldValue (*get)(const Scene&) = nullptr;
  void (*set)(Scene&, const FieldValue&) = nullptr;

  const std::string& key() const { return spec.key; }
  // "frequency.head_dim", or "design" for a top-level one.
  std::string jsonPath() const { return section.empty() ? jsonKey : section + "." + jsonKey; }
  // "2..1024" (Integer), "(1, 1e+12]" (Number), "all, first-half, ..." (Choice).
  std::string rangeText() const;
  // The default as a value of the field's type: a Choice's name, an empty list, the text.
  FieldValue defaultValue() const;
};

// Every field, in the order of the session file.
const std::vector<SceneField>& sceneFields();
// The field of `key`; std::out_of_range for a key not in the table (a programming error).
const SceneField& sceneField(std::string_view key);
// The JSON keys of one section, in table order (what the reader accepts there).
std::vector<std::string> sceneFieldKeys(std::string_view section);
// The sections' text form, as the command line's --sections and the GUI's box take it: nothing
// (the plan's default) or three whole numbers t,h,w in the field's range, comma-separated,
// spaces allowed. Anything else: InputError on field "sections", opened by `name` ("--sections
// expects three whole numbers t,h,w in 0..100000 ...").
std::vector<int> parseSectionsText(std::string_view text, const std::string& name);
// "16,24,24"; "" for the plan's default.
std::string formatSectionsText(const std::vector<int>& sections);
// The --help line of a field: its help, range and default ("head dimension, even, 2..1024
// (default 128)").
std::string sceneFieldHelp(const SceneField& field);

}  // namespace ropescope
