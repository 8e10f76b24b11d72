/**
 * Every tool of Wire API, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import * as pathSimple from "./path-simple.js";
import * as pathSimpleObject from "./path-simple-object.js";
import * as pathSimpleExplode from "./path-simple-explode.js";
import * as pathLabel from "./path-label.js";
import * as pathLabelExplode from "./path-label-explode.js";
import * as pathMatrix from "./path-matrix.js";
import * as pathMatrixExplode from "./path-matrix-explode.js";
import * as getItem from "./get-item.js";
import * as queryForm from "./query-form.js";
import * as queryFormObject from "./query-form-object.js";
import * as queryDelimited from "./query-delimited.js";
import * as queryDeep from "./query-deep.js";
import * as queryReserved from "./query-reserved.js";
import * as queryJson from "./query-json.js";
import * as headerParams from "./header-params.js";
import * as headerObjects from "./header-objects.js";
import * as cookieParams from "./cookie-params.js";
import * as listPets from "./list-pets.js";
import * as createPet from "./create-pet.js";
import * as replacePets from "./replace-pets.js";
import * as getPet from "./get-pet.js";
import * as deletePet from "./delete-pet.js";
import * as getPetPhoto from "./get-pet-photo.js";
import * as uploadPetPhoto from "./upload-pet-photo.js";
import * as getPetNotes from "./get-pet-notes.js";
import * as addPetNote from "./add-pet-note.js";
import * as setCounter from "./set-counter.js";
import * as createShape from "./create-shape.js";
import * as login from "./login.js";
import * as downloadFile from "./download-file.js";
import * as uploadFile from "./upload-file.js";
import * as updateThing from "./update-thing.js";
import * as secureBearer from "./secure-bearer.js";
import * as secureBasic from "./secure-basic.js";
import * as secureHeaderKey from "./secure-header-key.js";
import * as secureQueryKey from "./secure-query-key.js";
import * as secureCookieKey from "./secure-cookie-key.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [
  pathSimple.tool,
  pathSimpleObject.tool,
  pathSimpleExplode.tool,
  pathLabel.tool,
  pathLabelExplode.tool,
  pathMatrix.tool,
  pathMatrixExplode.tool,
  getItem.tool,
  queryForm.tool,
  queryFormObject.tool,
  queryDelimited.tool,
  queryDeep.tool,
  queryReserved.tool,
  queryJson.tool,
  headerParams.tool,
  headerObjects.tool,
  cookieParams.tool,
  listPets.tool,
  createPet.tool,
  replacePets.tool,
  getPet.tool,
  deletePet.tool,
  getPetPhoto.tool,
  uploadPetPhoto.tool,
  getPetNotes.tool,
  addPetNote.tool,
  setCounter.tool,
  createShape.tool,
  login.tool,
  downloadFile.tool,
  uploadFile.tool,
  updateThing.tool,
  secureBearer.tool,
  secureBasic.tool,
  secureHeaderKey.tool,
  secureQueryKey.tool,
  secureCookieKey.tool,
];

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  pathSimple?: pathSimple.Hooks;
  pathSimpleObject?: pathSimpleObject.Hooks;
  pathSimpleExplode?: pathSimpleExplode.Hooks;
  pathLabel?: pathLabel.Hooks;
  pathLabelExplode?: pathLabelExplode.Hooks;
  pathMatrix?: pathMatrix.Hooks;
  pathMatrixExplode?: pathMatrixExplode.Hooks;
  getItem?: getItem.Hooks;
  queryForm?: queryForm.Hooks;
  queryFormObject?: queryFormObject.Hooks;
  queryDelimited?: queryDelimited.Hooks;
  queryDeep?: queryDeep.Hooks;
  queryReserved?: queryReserved.Hooks;
  queryJson?: queryJson.Hooks;
  headerParams?: headerParams.Hooks;
  headerObjects?: headerObjects.Hooks;
  cookieParams?: cookieParams.Hooks;
  listPets?: listPets.Hooks;
  createPet?: createPet.Hooks;
  replacePets?: replacePets.Hooks;
  getPet?: getPet.Hooks;
  deletePet?: deletePet.Hooks;
  getPetPhoto?: getPetPhoto.Hooks;
  uploadPetPhoto?: uploadPetPhoto.Hooks;
  getPetNotes?: getPetNotes.Hooks;
  addPetNote?: addPetNote.Hooks;
  setCounter?: setCounter.Hooks;
  createShape?: createShape.Hooks;
  login?: login.Hooks;
  downloadFile?: downloadFile.Hooks;
  uploadFile?: uploadFile.Hooks;
  updateThing?: updateThing.Hooks;
  secureBearer?: secureBearer.Hooks;
  secureBasic?: secureBasic.Hooks;
  secureHeaderKey?: secureHeaderKey.Hooks;
  secureQueryKey?: secureQueryKey.Hooks;
  secureCookieKey?: secureCookieKey.Hooks;
};
