/* Fuzz target: a hub's file list (the tree API's JSON, from the network)
 * through the JSON reader, the listing and the choice of files; paths that
 * would leave the snapshot folder must never be listed. */
#include <stdlib.h>
#include <string.h>

#include "hub/hub_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    json_value *tree = json_parse((const char *)data, size, NULL, 0);
    if (!tree) return 0;
    hub_listing l = {0};
    if (hub_listing_from_tree(tree, &l, NULL) == 0) {
        for (int i = 0; i < l.n; i++)
            if (!hub_path_safe(l.files[i].path) || l.files[i].path[0] == '/') abort();
        static const char *tags[] = {"", "Q8_0", "q4_k_m", "F16"};
        for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
            const int m = hub_choose_model(&l, tags[t]);
            if (m < -1 || m >= l.n) abort();
            if (m < 0) continue;
            int parts[64];
            const int n = hub_model_parts(&l, m, parts, 64);
            for (int k = 0; k < n; k++)
                if (parts[k] < 0 || parts[k] >= l.n) abort();
            const int mm = hub_choose_mmproj(&l, l.files[m].path);
            if (mm < -1 || mm >= l.n) abort();
        }
        char names[256];
        hub_describe_models(&l, names, sizeof names);
        if (strlen(names) >= sizeof names) abort();
    }
    hub_listing_free(&l);
    json_free(tree);
    return 0;
}
