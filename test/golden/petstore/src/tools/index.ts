/**
 * Every tool of Swagger Petstore, in the spec's order, and the type of their hooks by tool name.
 */
import type { ToolNode } from "../model/types.js";
import * as updatePet from "./update-pet.js";
import * as addPet from "./add-pet.js";
import * as findPetsByStatus from "./find-pets-by-status.js";
import * as findPetsByTags from "./find-pets-by-tags.js";
import * as getPetById from "./get-pet-by-id.js";
import * as updatePetWithForm from "./update-pet-with-form.js";
import * as deletePet from "./delete-pet.js";
import * as uploadFile from "./upload-file.js";
import * as getInventory from "./get-inventory.js";
import * as placeOrder from "./place-order.js";
import * as getOrderById from "./get-order-by-id.js";
import * as deleteOrder from "./delete-order.js";
import * as createUser from "./create-user.js";
import * as createUsersWithArrayInput from "./create-users-with-array-input.js";
import * as createUsersWithListInput from "./create-users-with-list-input.js";
import * as loginUser from "./login-user.js";
import * as logoutUser from "./logout-user.js";
import * as getUserByName from "./get-user-by-name.js";
import * as updateUser from "./update-user.js";
import * as deleteUser from "./delete-user.js";

/** Every tool, in the spec's order. */
export const tools: ToolNode[] = [
  updatePet.tool,
  addPet.tool,
  findPetsByStatus.tool,
  findPetsByTags.tool,
  getPetById.tool,
  updatePetWithForm.tool,
  deletePet.tool,
  uploadFile.tool,
  getInventory.tool,
  placeOrder.tool,
  getOrderById.tool,
  deleteOrder.tool,
  createUser.tool,
  createUsersWithArrayInput.tool,
  createUsersWithListInput.tool,
  loginUser.tool,
  logoutUser.tool,
  getUserByName.tool,
  updateUser.tool,
  deleteUser.tool,
];

/** What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name. */
export type ToolHooksByName = {
  updatePet?: updatePet.Hooks;
  addPet?: addPet.Hooks;
  findPetsByStatus?: findPetsByStatus.Hooks;
  findPetsByTags?: findPetsByTags.Hooks;
  getPetById?: getPetById.Hooks;
  updatePetWithForm?: updatePetWithForm.Hooks;
  deletePet?: deletePet.Hooks;
  uploadFile?: uploadFile.Hooks;
  getInventory?: getInventory.Hooks;
  placeOrder?: placeOrder.Hooks;
  getOrderById?: getOrderById.Hooks;
  deleteOrder?: deleteOrder.Hooks;
  createUser?: createUser.Hooks;
  createUsersWithArrayInput?: createUsersWithArrayInput.Hooks;
  createUsersWithListInput?: createUsersWithListInput.Hooks;
  loginUser?: loginUser.Hooks;
  logoutUser?: logoutUser.Hooks;
  getUserByName?: getUserByName.Hooks;
  updateUser?: updateUser.Hooks;
  deleteUser?: deleteUser.Hooks;
};
