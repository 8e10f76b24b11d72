/**
 * Every tool of Wire API, in the spec's order, and their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import type { ToolHooks } from "../runtime/bridge-options.js";
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

/** Each tool's hooks, by tool name. */
export const hooks: Record<string, ToolHooks<object>> = {
  pathSimple: pathSimple.hooks,
  pathSimpleObject: pathSimpleObject.hooks,
  pathSimpleExplode: pathSimpleExplode.hooks,
  pathLabel: pathLabel.hooks,
  pathLabelExplode: pathLabelExplode.hooks,
  pathMatrix: pathMatrix.hooks,
  pathMatrixExplode: pathMatrixExplode.hooks,
  getItem: getItem.hooks,
  queryForm: queryForm.hooks,
  queryFormObject: queryFormObject.hooks,
  queryDelimited: queryDelimited.hooks,
  queryDeep: queryDeep.hooks,
  queryReserved: queryReserved.hooks,
  queryJson: queryJson.hooks,
  headerParams: headerParams.hooks,
  headerObjects: headerObjects.hooks,
  cookieParams: cookieParams.hooks,
  listPets: listPets.hooks,
  createPet: createPet.hooks,
  replacePets: replacePets.hooks,
  getPet: getPet.hooks,
  deletePet: deletePet.hooks,
  getPetPhoto: getPetPhoto.hooks,
  uploadPetPhoto: uploadPetPhoto.hooks,
  getPetNotes: getPetNotes.hooks,
  addPetNote: addPetNote.hooks,
  setCounter: setCounter.hooks,
  createShape: createShape.hooks,
  login: login.hooks,
  downloadFile: downloadFile.hooks,
  uploadFile: uploadFile.hooks,
  updateThing: updateThing.hooks,
  secureBearer: secureBearer.hooks,
  secureBasic: secureBasic.hooks,
  secureHeaderKey: secureHeaderKey.hooks,
  secureQueryKey: secureQueryKey.hooks,
  secureCookieKey: secureCookieKey.hooks,
};
