import { describe, expect, it } from "vitest";
import {
  chooseToolName,
  deriveNameFromRoute,
  deriveReadableName,
  fitName,
  fitNames,
  looksGenerated,
  resolveNameCollisions,
  sanitizeName,
  TOOL_NAME_PATTERN,
} from "../../../src/generator/compile/naming.js";

describe("sanitizeName", () => {
  it.each([
    { given: "getPetById", want: "getPetById" },
    { given: "pets.list", want: "pets_list" },
    { given: "repos/get-content", want: "repos_get-content" },
    { given: "  spaced out  ", want: "spaced_out" },
    { given: "Ünïcödé name", want: "Unicode_name" },
    { given: "a..b//c", want: "a_b_c" },
    { given: "...", want: "" },
  ])("$given → $want", ({ given, want }) => {
    expect(sanitizeName(given)).toBe(want);
  });
});

describe("deriveNameFromRoute", () => {
  it.each([
    { method: "get", path: "/pets/{petId}", want: "get_pets_by_petId" },
    { method: "POST", path: "/pets", want: "post_pets" },
    { method: "get", path: "/", want: "get" },
    {
      method: "delete",
      path: "/users/{user-id}/keys/{key.id}",
      want: "delete_users_by_user-id_keys_by_key_id",
    },
  ])("$method $path → $want", ({ method, path, want }) => {
    expect(deriveNameFromRoute(method, path)).toBe(want);
  });
});

describe("fitName", () => {
  it("keeps names up to 64 characters", () => {
    const name = "a".repeat(64);
    expect(fitName(name)).toBe(name);
  });
  it("shortens longer names with a stable hash, and two long names stay distinct", () => {
    const one = fitName(`${"x".repeat(70)}_one`);
    const two = fitName(`${"x".repeat(70)}_two`);
    expect(one).toHaveLength(64);
    expect(one).toMatch(TOOL_NAME_PATTERN);
    expect(one).not.toBe(two);
    expect(fitName(`${"x".repeat(70)}_one`)).toBe(one);
  });
});

describe("fitName: keeps whole words from the start and the end", () => {
  it.each([
    {
      given: "deleteAdmissionregistrationV1alpha1CollectionValidatingAdmissionPolicyBinding",
      starts: "deleteAdmissionregistration",
      ends: "AdmissionPolicyBinding",
    },
    {
      given: "post_api_v2_organizations_by_organization_id_projects_by_project_id_members",
      starts: "post_api_v2_organizations",
      ends: "project_id_members",
    },
  ])("$given", ({ given, starts, ends }) => {
    const short = fitName(given);
    expect(short.length).toBeLessThanOrEqual(64);
    expect(short).toMatch(TOOL_NAME_PATTERN);
    expect(short.startsWith(starts)).toBe(true);
    expect(short).toMatch(new RegExp(`_${ends}_[0-9a-f]{8}$`));
  });
});

describe("fitNames: long names that would shorten alike keep the words that differ", () => {
  const k8s = [
    "deleteAdmissionregistrationV1alpha1CollectionValidatingAdmissionPolicy",
    "deleteAdmissionregistrationV1alpha1CollectionValidatingAdmissionPolicyBinding",
    "deleteAdmissionregistrationV1alpha1CollectionMutatingAdmissionPolicy",
    "deleteAdmissionregistrationV1beta1CollectionMutatingAdmissionPolicy",
    "deleteAdmissionregistrationV1beta1CollectionValidatingAdmissionPolicy",
    "deleteFlowcontrolApiserverV1beta2CollectionPriorityLevelConfiguration",
    "deleteFlowcontrolApiserverV1beta3CollectionPriorityLevelConfiguration",
    "listAdmissionregistrationV1alpha1ValidatingAdmissionPolicyBinding",
    "watchAdmissionregistrationV1alpha1ValidatingAdmissionPolicyBindingList",
    "watchAdmissionregistrationV1alpha1ValidatingAdmissionPolicyBinding",
    "getPets",
  ];
  /** The text of a shortened name without its hash: what a model reads to choose a tool. */
  const textOf = (name: string) => name.replace(/_[0-9a-f]{8}$/, "");

  it.each([64, 41])("within %i characters, every shortened text differs from every other", (limit) => {
    const fitted = fitNames(k8s, limit);
    expect(fitted.at(-1)).toBe("getPets");
    for (const name of fitted) {
      expect(name.length).toBeLessThanOrEqual(limit);
      expect(name).toMatch(TOOL_NAME_PATTERN);
    }
    expect(new Set(fitted.map((name) => textOf(name).toLowerCase())).size).toBe(k8s.length);
    expect(fitNames(k8s, limit)).toEqual(fitted);
  });

  it.each([
    { index: 0, words: ["Validating", "Policy"], not: "Binding" },
    { index: 1, words: ["PolicyBinding"], not: undefined },
    { index: 2, words: ["V1alpha1", "Mutating", "Policy"], not: undefined },
    { index: 3, words: ["V1beta1", "Mutating"], not: undefined },
    { index: 5, words: ["V1beta2"], not: undefined },
    { index: 6, words: ["V1beta3"], not: undefined },
  ])("$words are kept in name $index", ({ index, words, not }) => {
    const text = textOf(fitNames(k8s)[index]!);
    for (const word of words) expect(text).toContain(word);
    if (not) expect(text).not.toContain(not);
  });
});

describe("chooseToolName", () => {
  it.each([
    { op: { operationId: "listPets", method: "get", path: "/pets" }, want: "listPets" },
    { op: { operationId: "pets.list", method: "get", path: "/pets" }, want: "pets_list" },
    { op: { method: "get", path: "/pets/{id}" }, want: "get_pets_by_id" },
    { op: { operationId: "", method: "put", path: "/a" }, want: "put_a" },
    { op: { operationId: "!!!", method: "put", path: "/a" }, want: "put_a" },
    // A route too long for a name: in words, its parameters left out but the last, no hash.
    {
      op: {
        method: "post",
        path: "/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}/request-changes",
      },
      want: "post_repositories_pullrequests_by_id_request-changes",
    },
    {
      op: { method: "put", path: "/repositories/{workspace}/{repo_slug}/pullrequests/{pull_request_id}" },
      want: "put_repositories_pullrequests_by_id",
    },
    // One that fits keeps the name it always had.
    {
      op: { method: "get", path: "/repositories/{workspace}/{repo_slug}/pullrequests" },
      want: "get_repositories_by_workspace_by_repo_slug_pullrequests",
    },
  ])("$want", ({ op, want }) => {
    expect(chooseToolName(op).name).toBe(want);
  });
  it("tells how the name was made", () => {
    expect(chooseToolName({ operationId: "ok_id", method: "get", path: "/" }).origin).toBe("operationId");
    expect(chooseToolName({ operationId: "a.b", method: "get", path: "/" }).origin).toBe("cleaned");
    expect(chooseToolName({ operationId: "x".repeat(65), method: "get", path: "/" }).origin).toBe("cleaned");
    expect(chooseToolName({ method: "get", path: "/a" }).origin).toBe("route");
  });
});

describe("resolveNameCollisions", () => {
  it("keeps the first name and gives later duplicates a route-derived suffix", () => {
    const names = resolveNameCollisions([
      { name: "getPet", route: "GET /pets/{id}" },
      { name: "getPet", route: "GET /v2/pets/{id}" },
      { name: "GETPET", route: "GET /v3/pets/{id}" },
      { name: "other", route: "GET /other" },
    ]);
    expect(names[0]).toBe("getPet");
    expect(names[1]).toMatch(/^getPet_[0-9a-f]{6}$/);
    expect(names[2]).toMatch(/^GETPET_[0-9a-f]{6}$/);
    expect(names[3]).toBe("other");
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(4);
  });
  it("lets an operationId used as it is win over a cleaned or derived name", () => {
    const names = resolveNameCollisions([
      { name: "get_pets", route: "GET /pets", origin: "route" },
      { name: "get_pets", route: "GET /x", origin: "cleaned" },
      { name: "get_pets", route: "GET /y", origin: "operationId" },
    ]);
    expect(names[2]).toBe("get_pets");
    expect(names[0]).toMatch(/^get_pets_[0-9a-f]{6}$/);
    expect(names[1]).toMatch(/^get_pets_[0-9a-f]{6}$/);
  });
  it("is stable when an unrelated operation is added in front", () => {
    const before = resolveNameCollisions([
      { name: "dup", route: "GET /a" },
      { name: "dup", route: "GET /b" },
    ]);
    const after = resolveNameCollisions([
      { name: "new", route: "GET /new" },
      { name: "dup", route: "GET /a" },
      { name: "dup", route: "GET /b" },
    ]);
    expect(after.slice(1)).toEqual(before);
  });
});

describe("generated operationIds get readable names from the route", () => {
  it.each([
    // Microsoft Graph's type casts and counts, as published in v1.0.
    {
      operationId: "Get.microsoft.graph.directoryObject.Items.As.microsoft.graph.user-9410",
      method: "get",
      path: "/groups/{group-id}/members/microsoft.graph.user",
      want: "get_groups_by_group-id_members_user",
    },
    {
      operationId: "Get.microsoft.graph.directoryObject.Item.As.microsoft.graph.servicePrincipal-cc0a",
      method: "get",
      path: "/contacts/{orgContact-id}/memberOf/{directoryObject-id}/microsoft.graph.servicePrincipal",
      want: "get_contacts_memberOf_by_id_servicePrincipal",
    },
    {
      operationId: "Get.Count.windowsInformationProtectionAppLearningSummaries-07af",
      method: "get",
      path: "/deviceManagement/windowsInformationProtectionAppLearningSummaries/$count",
      want: "get_windowsInformationProtectionAppLearningSummaries_count",
    },
    {
      operationId:
        "drives.drive.items.driveItem.workbook.tables.workbookTable.columns.workbookTableColumn.range",
      method: "get",
      path: "/drives/{drive-id}/items/{driveItem-id}/workbook/tables/{workbookTable-id}/columns/{workbookTableColumn-id}/microsoft.graph.range()",
      want: "get_drives_items_workbook_tables_columns_by_id_range",
    },
    { operationId: "listUsers_163275ec", method: "get", path: "/users", want: "get_users" },
  ])("$operationId → $want", ({ operationId, method, path, want }) => {
    const chosen = chooseToolName({ operationId, method, path });
    expect(chosen).toEqual({ name: want, origin: "cleaned" });
    expect(TOOL_NAME_PATTERN.test(chosen.name)).toBe(true);
  });

  it.each([
    "getPetById",
    "list-things-v2-beta",
    "users.user.ListMemberOf",
    "deleteAdmissionregistrationV1alpha1CollectionValidatingAdmissionPolicy",
    "get_report_2024",
    "getFace",
    "repos/get-content",
  ])("%s is a person's operationId: named as before", (operationId) => {
    expect(looksGenerated(operationId)).toBe(false);
  });

  it("a long route keeps its end and its first resource, never a hash", () => {
    const name = deriveReadableName(
      "delete",
      "/drives/{drive-id}/items/{driveItem-id}/workbook/worksheets/{workbookWorksheet-id}/charts/{workbookChart-id}/series/{workbookChartSeries-id}/points/{workbookChartPoint-id}/format/fill",
    );
    expect(name).toBe("delete_drives_worksheets_charts_series_points_format_fill");
    expect(name.length).toBeLessThanOrEqual(64);
  });
});
