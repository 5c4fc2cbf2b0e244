/* The tests read their JSON (case.json, tokens.json, greedy.json) with the
 * engine's reader; this keeps their `#include "json.h"`. */
#include "seer/json.h"
