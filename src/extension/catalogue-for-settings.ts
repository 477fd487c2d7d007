// The session catalogue under the piSessions.piVersion setting: an explicit
// version counts every session with it; "auto" counts sessions with a pi 1.x
// marker as pi 1.5 and the others as the installed pi (else 0.73). Opened once
// per policy, so a changed setting reads rows with the new one.

import { SessionCatalogue, type CatalogueOptions } from "../core/catalogue/session-catalogue";
import { choosePiVersion, type PiVersion } from "../core/agent";

export function catalogueForSettings(folder: string, piVersion: () => PiVersion | undefined): () => Promise<SessionCatalogue> {
  const opened = new Map<string, Promise<SessionCatalogue>>();
  return () => {
    const explicit = piVersion();
    const options: CatalogueOptions = explicit ? { explicitVersion: explicit } : { defaultVersion: choosePiVersion({ marker: null }).version };
    const key = JSON.stringify(options);
    let catalogue = opened.get(key);
    if (!catalogue) {
      catalogue = SessionCatalogue.open(folder, options);
      catalogue.catch(() => opened.delete(key));
      opened.set(key, catalogue);
    }
    return catalogue;
  };
}
