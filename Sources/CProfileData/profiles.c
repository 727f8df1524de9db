#include "CProfileData.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

/* Profiles/<name>.json, embedded at build time, in the order `profiles` lists them.
 * A file added to Profiles/ needs a line here; PlatformProfileDataTests fails otherwise. */
static const unsigned char profile_0[] = {
#embed "../../Profiles/network.json"
};
static const unsigned char profile_1[] = {
#embed "../../Profiles/google-ads.json"
};
static const unsigned char profile_2[] = {
#embed "../../Profiles/google-ad-manager.json"
};
static const unsigned char profile_3[] = {
#embed "../../Profiles/dv360.json"
};
static const unsigned char profile_4[] = {
#embed "../../Profiles/cm360.json"
};
static const unsigned char profile_5[] = {
#embed "../../Profiles/iab-lean.json"
};
static const unsigned char profile_6[] = {
#embed "../../Profiles/trade-desk.json"
};
static const unsigned char profile_7[] = {
#embed "../../Profiles/amazon-dsp.json"
};
static const unsigned char profile_8[] = {
#embed "../../Profiles/microsoft.json"
};

static const struct { const char *name; const unsigned char *bytes; size_t length; } profiles[] = {
    {"network.json", profile_0, sizeof profile_0},
    {"google-ads.json", profile_1, sizeof profile_1},
    {"google-ad-manager.json", profile_2, sizeof profile_2},
    {"dv360.json", profile_3, sizeof profile_3},
    {"cm360.json", profile_4, sizeof profile_4},
    {"iab-lean.json", profile_5, sizeof profile_5},
    {"trade-desk.json", profile_6, sizeof profile_6},
    {"amazon-dsp.json", profile_7, sizeof profile_7},
    {"microsoft.json", profile_8, sizeof profile_8},
};

int creative_profile_count(void) { return (int)(sizeof profiles / sizeof profiles[0]); }

const unsigned char *creative_profile_file(int index, const char **name, size_t *length) {
    if (index < 0 || index >= creative_profile_count()) {
        *name = NULL;
        *length = 0;
        return NULL;
    }
    *name = profiles[index].name;
    *length = profiles[index].length;
    return profiles[index].bytes;
}
