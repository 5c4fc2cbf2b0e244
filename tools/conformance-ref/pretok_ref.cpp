// Reference word splits for seer's pre-tokenizers: llama.cpp's own
// unicode_regex_split (exported by libllama) run with the regexes given in the
// file argv[1] (one per line, hex-encoded UTF-8). Reads hex-encoded UTF-8
// texts on stdin, one per line, and prints for each the word boundaries in
// code points ("0 3 5 ..."), the format of tools/unicode/pretok_split.
// Built and run by tools/conformance-ref/check_pretok_llama.py.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

std::vector<std::string> unicode_regex_split(const std::string & text, const std::vector<std::string> & regex_exprs,
                                             bool byte_encode);

static std::string from_hex(const std::string & hex) {
    std::string out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) out += (char) std::stoi(hex.substr(i, 2), nullptr, 16);
    return out;
}

static size_t count_code_points(const std::string & s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

int main(int argc, char ** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: pretok_ref REGEX_FILE < hex-lines\n");
        return 2;
    }
    std::vector<std::string> regexes;
    std::ifstream rf(argv[1]);
    for (std::string line; std::getline(rf, line);) regexes.push_back(from_hex(line));
    for (std::string line; std::getline(std::cin, line);) {
        std::vector<std::string> words = unicode_regex_split(from_hex(line), regexes, false);
        size_t at = 0;
        std::printf("0 ");
        for (const std::string & w : words) {
            at += count_code_points(w);
            std::printf("%zu ", at);
        }
        std::printf("\n");
    }
    return 0;
}
