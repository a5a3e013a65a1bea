// CSV and JSON of a Table (the figure data export).
#include "ropescope/table_report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"

namespace ropescope {

namespace {

std::string csvText(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csvCell(const TableCell& cell) {
  // An undefined value (NaN: a PTD with no visual token) is an empty cell, as JSON's null.
  if (const auto* d = std::get_if<double>(&cell)) return csvNumber(*d);
  if (const auto* i = std::get_if<long long>(&cell)) return std::to_string(*i);
  return csvText(std::get<std::string>(cell));
}

}  // namespace

std::string tableReport(const Table& table, TableFormat format, const std::string& title) {
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    if (table.rows[r].size() != table.columns.size())
      throw InputError("table row " + std::to_string(r) + " has " +
                       std::to_string(table.rows[r].size()) + " cells (expected " +
                       std::to_string(table.columns.size()) + ")");
  if (format == TableFormat::Csv) {
    std::string s;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c) s += ',';
      s += csvText(table.columns[c]);
    }
    s += '\n';
    for (const auto& row : table.rows) {
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (c) s += ',';
        s += csvCell(row[c]);
      }
      s += '\n';
    }
    return s;
  }
  using json = nlohmann::ordered_json;
  json rows = json::array();
  for (const auto& row : table.rows) {
    json obj = json::object();
    for (std::size_t c = 0; c < row.size(); ++c)
      std::visit([&](const auto& v) { obj[table.columns[c]] = v; }, row[c]);
    rows.push_back(std::move(obj));
  }
  json out = json::object();
  if (!title.empty()) out["title"] = title;
  out["columns"] = table.columns;
  out["rows"] = std::move(rows);
  return out.dump(2) + "\n";
}

}  // namespace ropescope
